package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.UdEnd;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nodes, queue-pair addresses and remote keys: ids, round trips through bytes, refusal of bytes that are no address
 * or key, RC connect rules.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface AddressConformance extends FabricNodes {

    @Test
    default void nodesHaveDistinctNonZeroIdsAndReportTheirConfiguration() {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");

        assertThat(List.of(a.node(), b.node(), c.node())).doesNotContain(0L).doesNotHaveDuplicates();
        assertThat(a.nodeName()).isEqualTo("a");
        assertThat(a.provider()).isEqualTo(nodeConfig("a").provider());
        FabricCapabilities capabilities = a.capabilities();
        assertThat(capabilities.maxQueueDepth()).as("maxQueueDepth").isGreaterThanOrEqualTo(64);
        assertThat(capabilities.maxCompletionQueueCapacity())
                .as("maxCompletionQueueCapacity")
                .isGreaterThanOrEqualTo(128);
        assertThat(capabilities.maxMessageBytes()).as("maxMessageBytes").isGreaterThanOrEqualTo(64 * KIB);
        assertThat(capabilities.maxInlineBytes()).as("maxInlineBytes").isNotNegative();
        if (capabilities.supportsUd()) {
            assertThat(capabilities.udMtuBytes()).as("UD MTU of the contract").isEqualTo(4096);
        } else {
            assertThat(capabilities.udMtuBytes()).as("udMtuBytes without UD").isZero();
        }
    }

    @Test
    default void addressesAndKeysRoundTripThroughBytes() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcEnd first = rcEnd(a, 4, 4);
        RcEnd second = rcEnd(a, 4, 4);

        QueuePairAddress imported = addressAt(b, first.queuePair());
        assertThat(imported.node())
                .isEqualTo(a.node())
                .isEqualTo(first.queuePair().address().node());
        assertThat(imported.queuePairNumber()).isEqualTo(first.queuePair().queuePairNumber());
        assertThat(imported.type()).isEqualTo(QueuePairType.RC);
        assertThat(imported.toBytes()).isEqualTo(first.queuePair().address().toBytes());
        assertThat(first.queuePair().type()).isEqualTo(QueuePairType.RC);
        assertThat(first.queuePair().state()).isEqualTo(QueuePairState.INIT);
        assertThat(first.queuePair().peer()).isNull();
        assertThat(second.queuePair().queuePairNumber())
                .as("queue pair numbers are unique on a node")
                .isNotEqualTo(first.queuePair().queuePairNumber());

        if (a.capabilities().supportsUd()) {
            UdEnd ud = udEnd(a, 4, 4);
            QueuePairAddress udAddress = addressAt(b, ud.queuePair());
            assertThat(udAddress.type()).isEqualTo(QueuePairType.UD);
            assertThat(udAddress.node()).isEqualTo(a.node());
            assertThat(udAddress.queuePairNumber()).isEqualTo(ud.queuePair().queuePairNumber());
            assertThat(ud.queuePair().state())
                    .as("a UD queue pair is ready at once")
                    .isEqualTo(QueuePairState.READY);
        }

        MemoryRegion region = a.register(12_345, ALL_RIGHTS);
        RemoteKey key = keyAt(b, region);
        assertThat(key.lengthBytes()).isEqualTo(12_345);
        assertThat(key.toBytes()).isEqualTo(region.remoteKey().toBytes());
    }

    @Test
    default void importingBytesThatAreNoAddressOrKeyIsInvalidArgument() {
        Fabric a = open("a");
        Fabric b = open("b");
        MemoryRegion region = a.register(4096, ALL_RIGHTS);
        RcEnd end = rcEnd(a, 4, 4);
        byte[] random = new byte[37];
        fill(MemorySegment.ofArray(random), 0, random.length, SEED);

        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT, "importAddress(empty)", () -> b.importAddress(new byte[0]));
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT, "importAddress(random bytes)", () -> b.importAddress(random));
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "importAddress(a key's bytes)",
                () -> b.importAddress(region.remoteKey().toBytes()));
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "importRemoteKey(empty)",
                () -> b.importRemoteKey(new byte[0]));
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "importRemoteKey(random bytes)",
                () -> b.importRemoteKey(random));
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "importRemoteKey(an address's bytes)",
                () -> b.importRemoteKey(end.queuePair().address().toBytes()));
    }

    @Test
    default void rcConnectRefusesUdAddressesAndASecondConnect() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcEnd endA = rcEnd(a, 4, 4);
        RcEnd endB = rcEnd(b, 4, 4);
        RcEnd other = rcEnd(b, 4, 4);
        if (b.capabilities().supportsUd()) {
            UdEnd ud = udEnd(b, 4, 4);
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "RC connect to a UD address",
                    () -> endA.queuePair().connect(addressAt(a, ud.queuePair())));
            assertThat(endA.queuePair().state()).isEqualTo(QueuePairState.INIT);
        }
        connect(endA, endB);
        assertThat(endA.queuePair().state()).isEqualTo(QueuePairState.READY);
        assertThat(endA.queuePair().peer().queuePairNumber())
                .isEqualTo(endB.queuePair().queuePairNumber());
        assertThat(endA.queuePair().peer().node()).isEqualTo(b.node());
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "second connect",
                () -> endA.queuePair().connect(addressAt(a, other.queuePair())));
        assertThat(endA.queuePair().peer().queuePairNumber())
                .isEqualTo(endB.queuePair().queuePairNumber());
    }

    @Test
    default void postSendBeforeConnectIsRefusedAndPostsNothing() {
        Fabric a = open("a");
        RcEnd end = rcEnd(a, 4, 4);
        MemoryRegion source = a.register(64, NO_RIGHTS);
        MemoryRegion receiveBuffer = a.register(64, LOCAL_WRITE);

        end.queuePair().postReceive(1, receiveBuffer, 0, 64); // allowed in INIT
        assertThat(end.queuePair().postedReceives()).isEqualTo(1);
        assertFaroException(
                EnumSet.allOf(FaroException.Category.class),
                "postSend in INIT",
                () -> end.queuePair().postSend(new WorkRequest().requestId(2).local(source, 0, 64)));
        assertNoCompletion(end.completionQueue(), "nothing was posted");
    }
}
