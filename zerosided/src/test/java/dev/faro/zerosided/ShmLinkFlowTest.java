package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.ShmPacketLink;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchStatistics;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1:1 flow whose switch and NICs talk over shared-memory packet links (the multi-process runs' link) with 1 % loss,
 * reordering and duplication injected around every link: exactly-once, in-order delivery, the payload bound, no PU
 * communication.
 */
class ShmLinkFlowTest {

    @TempDir
    Path directory;

    @Test
    void oneToOneOverSharedMemoryLinksDeliversExactlyOnceInOrderUnderFaults() throws Exception {
        SwitchConfig config = SwitchConfig.DEFAULT.withRetryTimeoutNs(2_000_000);
        try (Testbed bed = new Testbed(
                config, new FaultInjection(7, 0.01, 0.01, 0.01), 0, 2, () -> ShmPacketLink.open(directory))) {
            Testbed.Exposed source = bed.expose(0, 64, 256, true, 5);
            Testbed.Exposed sink = bed.expose(1, 32, 256, false, 9);
            int flow = bed.zeroSidedSwitch.control().installOneToOne(source.switchQueuePair(), sink.switchQueuePair());
            ZeroSidedBuffer producer = source.exposure().view(null);
            ZeroSidedBuffer consumer = sink.exposure().view(null);
            bed.start();
            int items = 6_000;
            Thread producing = Thread.ofPlatform().start(() -> ZeroSidedFlowTest.produce(producer, 0, items));
            List<Long> received = ZeroSidedFlowTest.consume(consumer, bed);
            producing.join();

            assertThat(received).hasSize(items);
            for (int i = 0; i < items; i++) {
                assertThat(received.get(i)).as("item %d", i).isEqualTo(Items.id(0, i));
            }
            SwitchStatistics statistics = bed.zeroSidedSwitch.statistics();
            assertThat(bed.zeroSidedSwitch.control().unsynchronizedFinished(flow))
                    .isTrue();
            assertThat(statistics.failure()).isNull();
            assertThat(statistics.retries())
                    .as("faults were injected and recovered from")
                    .isPositive();
            assertThat(statistics.payloadHighWaterBytes()).isLessThanOrEqualTo(PacketDescriptor.DEFAULT_MTU_BYTES);
            assertThat(statistics.payloadBoundViolations()).isZero();
            assertThat(producer.communicationNanos()).isZero();
            assertThat(consumer.communicationNanos()).isZero();
            assertThat(bed.runner().failure()).isNull();
        }
    }
}
