package dev.faro.fabric.ucx;

import static dev.faro.fabric.FabricTesting.assertFaroException;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricProvider;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import org.junit.jupiter.api.Test;

/**
 * What the {@code ucx} provider adds around the contract: it is found by name, refuses UD naming the UD-free designs,
 * passes UCX settings through, refuses malformed provider options in one line, and leaves the JVM's own SIGSEGV handling alone.
 * The cases that open a node need libucx ({@link Requires}); the others run everywhere.
 */
class UcxProviderTest {

    @Test
    void theProviderIsFoundByName() {
        assertThat(Fabrics.providers()).extracting(FabricProvider::name).contains("ucx");
    }

    @Test
    @Requires(Requirement.UCX)
    void udQueuePairsAreRefusedNamingTheSixUdFreeDesigns() {
        try (Fabric fabric = Fabrics.open(UcxTesting.config("a", "sm,self"))) {
            var queue = fabric.createCompletionQueue(8);
            assertThat(fabric.capabilities().supportsUd()).isFalse();
            FaroException refused = assertFaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "UD on ucx",
                    () -> fabric.createUdQueuePair(QueuePairConfig.of(queue, 4, 4)));
            assertThat(refused.getMessage()).contains("SEMQ/SR", "MEMQ/SR", "SEMQ/RD", "MEMQ/RD", "SEMQ/WR", "MEMQ/WR");
        }
    }

    @Test
    @Requires(Requirement.UCX)
    void ucxSettingsPassThroughAndUnknownOnesAreRefusedInOneLine() {
        FabricConfig tuned = UcxTesting.config("tuned", "sm,self")
                .withOption("ucx.RNDV_THRESH", "16k")
                .withOption("ucx.idle", "spin");
        try (Fabric fabric = Fabrics.open(tuned)) {
            assertThat(fabric.provider()).isEqualTo("ucx");
        }
        // a capitalised name UCX does not know is UCX's to judge: libucp 1.13 accepts and ignores it
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "a misspelt provider option",
                () -> Fabrics.open(UcxTesting.config("y", "sm,self").withOption("ucx.tlz", "tcp"))
                        .close());
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "a bad error mode",
                () -> Fabrics.open(UcxTesting.config("z", "sm,self").withOption("ucx.error-mode", "maybe"))
                        .close());
    }

    @Test
    void sharedMemoryIsFoundInATransportList() {
        assertThat(UcxOptions.includesSharedMemory(null))
                .as("UCX's default: every transport")
                .isTrue();
        assertThat(UcxOptions.includesSharedMemory("sm,self")).isTrue();
        assertThat(UcxOptions.includesSharedMemory("tcp,posix")).isTrue();
        assertThat(UcxOptions.includesSharedMemory("tcp,self")).isFalse();
        assertThat(UcxOptions.includesSharedMemory("^tcp")).isTrue();
        assertThat(UcxOptions.includesSharedMemory("^sm")).isFalse();
        assertThat(UcxOptions.includesSharedMemory("^posix,sysv"))
                .as("cma, knem, xpmem left")
                .isTrue();
        assertThat(UcxOptions.includesSharedMemory("^posix,sysv,cma,knem,xpmem"))
                .isFalse();
    }

    @Test
    void aHostIdentityOfThisProcessIsLocalAndAnUnknownOneNever() {
        assertThat(UcxHost.isLocal(UcxHost.ID)).isEqualTo(UcxHost.ID != UcxHost.UNKNOWN);
        assertThat(UcxHost.isLocal(UcxHost.UNKNOWN)).isFalse();
        assertThat(UcxHost.isLocal(UcxHost.ID + 1)).isFalse();
    }

    @Test
    void aQueuePairAddressCarriesItsHostThroughItsBytes() {
        UcxQueuePairAddress address = new UcxQueuePairAddress(7, 3, 0x1234_5678_9abcL, new byte[] {1, 2, 3});
        UcxQueuePairAddress copy = UcxQueuePairAddress.fromBytes(address.toBytes());
        assertThat(copy).isEqualTo(address);
        assertThat(copy.host).isEqualTo(0x1234_5678_9abcL);
        assertThat(copy.workerAddress).containsExactly(1, 2, 3);
    }

    @Test
    @Requires(Requirement.UCX)
    void theJvmStillTurnsItsOwnSegmentationFaultsIntoNullPointerExceptions() {
        try (Fabric fabric = Fabrics.open(UcxTesting.config("signals", "sm,self"))) {
            assertThat(fabric.node()).isNotZero();
            // compiled code uses SIGSEGV for implicit null checks: with UCX's handler installed this would crash
            long caught = 0;
            for (int i = 0; i < 200_000; i++) {
                try {
                    caught += length(i % 2 == 0 ? null : "x");
                } catch (NullPointerException expected) {
                    caught++;
                }
            }
            assertThat(caught).isEqualTo(200_000);
        }
    }

    private static int length(String value) {
        return value.length();
    }
}
