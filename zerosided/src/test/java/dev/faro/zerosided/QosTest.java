package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Per-flow QoS weights: three 1:1 flows between the same two PUs, all backlogged (producer buffers filled before the
 * switch starts, consumer buffers with room for all of it, so no PU thread's scheduling decides anything): their
 * shares of the items moved follow the weights from the moment they are set, and new weights from the moment of a
 * live change, within 10 %. Counts are read by the switch's own thread at one instant, in order with the changes.
 */
class QosTest {

    private static final int CAPACITY = 1 << 17;
    private static final int ITEM_BYTES = 64;
    private static final long WINDOW_ITEMS = 15_000;

    @Test
    void sharesTrackWeightsAndTheirChanges() throws Exception {
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(4096).withRetryTimeoutNs(2_000_000);
        try (Testbed bed = new Testbed(config, FaultInjection.NONE, 0, 2)) {
            SwitchControl control = bed.zeroSidedSwitch.control();
            int[] flows = new int[3];
            int[] consumers = new int[3];
            for (int f = 0; f < 3; f++) {
                Testbed.Exposed source = bed.expose(0, CAPACITY, ITEM_BYTES, true, 0);
                Testbed.Exposed sink = bed.expose(1, CAPACITY, ITEM_BYTES, false, 0);
                ZeroSidedBuffer producer = source.exposure().view(null);
                sink.exposure().view(null);
                for (int i = 0; i < CAPACITY; i++) {
                    producer.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, producer.claimSlot(), i);
                    producer.push();
                }
                consumers[f] = sink.switchQueuePair();
                flows[f] = control.installOneToOne(source.switchQueuePair(), consumers[f]);
            }
            control.setWeight(flows[0], 1);
            control.setWeight(flows[1], 2);
            control.setWeight(flows[2], 3);
            // taken in the switch's first pass with the installs and weights, before any transfer
            var first = control.itemsDelivered(consumers);
            bed.start();
            long[] start = first.get(10, TimeUnit.SECONDS);
            long[] end = awaitWindow(control, consumers, start);
            assertShares(start, end, new double[] {1, 2, 3});

            control.setWeight(flows[0], 3);
            control.setWeight(flows[2], 1);
            start = control.itemsDelivered(consumers).get(10, TimeUnit.SECONDS);
            end = awaitWindow(control, consumers, start);
            assertShares(start, end, new double[] {3, 2, 1});
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
        }
    }

    private static void assertShares(long[] start, long[] end, double[] weights) {
        double total = 0;
        double weightSum = weights[0] + weights[1] + weights[2];
        for (int f = 0; f < 3; f++) {
            total += end[f] - start[f];
            assertThat(end[f]).as("flow %d still backlogged", f).isLessThan(CAPACITY);
        }
        for (int f = 0; f < 3; f++) {
            double share = (end[f] - start[f]) / total;
            double expected = weights[f] / weightSum;
            assertThat(share)
                    .as("flow %d with weight %s: share %.3f, expected %.3f", f, weights[f], share, expected)
                    .isCloseTo(expected, Offset.offset(0.1 * expected));
        }
    }

    /** Waits until {@link #WINDOW_ITEMS} more items have been delivered in all; returns the counts then. */
    private static long[] awaitWindow(SwitchControl control, int[] consumers, long[] start) throws Exception {
        long begin = start[0] + start[1] + start[2];
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            long[] counts = control.itemsDelivered(consumers).get(10, TimeUnit.SECONDS);
            if (counts[0] + counts[1] + counts[2] - begin >= WINDOW_ITEMS) {
                return counts;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no progress:\n" + control.unsynchronizedDescribe());
            }
            Thread.onSpinWait();
        }
    }
}
