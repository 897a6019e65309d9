package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Per-flow QoS weights: three 1:1 flows between the same two PUs, all backlogged (producer buffers filled before the
 * switch starts, consumer buffers with room for all of it, so no PU thread's scheduling decides anything): their
 * shares of the items moved follow the weights, and follow new weights after a live change, within 10 %.
 */
class QosTest {

    private static final int CAPACITY = 1 << 15;
    private static final int ITEM_BYTES = 64;

    @Test
    void sharesTrackWeightsAndTheirChanges() {
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
            bed.start();
            assertShares(control, consumers, new double[] {1, 2, 3});
            control.setWeight(flows[0], 3);
            control.setWeight(flows[2], 1);
            assertShares(control, consumers, new double[] {3, 2, 1});
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
        }
    }

    /** Skips the first 1,500 items (the change settling), then measures shares over the next 15,000. */
    private static void assertShares(SwitchControl control, int[] consumers, double[] weights) {
        long[] start = await(control, consumers, 1_500);
        long[] end = await(control, consumers, 15_000);
        double total = 0;
        double weightSum = weights[0] + weights[1] + weights[2];
        for (int f = 0; f < 3; f++) {
            total += end[f] - start[f];
        }
        for (int f = 0; f < 3; f++) {
            double share = (end[f] - start[f]) / total;
            double expected = weights[f] / weightSum;
            assertThat(share)
                    .as("flow %d with weight %s: share %.3f, expected %.3f", f, weights[f], share, expected)
                    .isCloseTo(expected, org.assertj.core.data.Offset.offset(0.1 * expected));
        }
    }

    /** Waits until {@code items} more items have been delivered in all; returns every flow's count then. */
    private static long[] await(SwitchControl control, int[] consumers, long items) {
        long begin = sum(control, consumers);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (sum(control, consumers) - begin < items) {
            assertThat(System.nanoTime() - deadline).as("no progress").isNegative();
            Thread.onSpinWait();
        }
        long[] counts = new long[3];
        for (int f = 0; f < 3; f++) {
            counts[f] = control.unsynchronizedItemsDelivered(consumers[f]);
        }
        return counts;
    }

    private static long sum(SwitchControl control, int[] consumers) {
        long sum = 0;
        for (int consumer : consumers) {
            sum += control.unsynchronizedItemsDelivered(consumer);
        }
        return sum;
    }
}
