package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The control plane refuses bad arguments on the caller's side with a one-line error, and the switch keeps running: a
 * flow installed afterwards still moves its items.
 */
class SwitchControlTest {

    private static final FaultInjection NONE = new FaultInjection(1, 0, 0, 0);
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void badArgumentsAreRefusedOnTheCallersSideAndTheSwitchKeepsRunning() throws Exception {
        try (Testbed bed = new Testbed(SwitchConfig.DEFAULT, NONE, 0, 2)) {
            Testbed.Exposed sourceBuffer = bed.expose(0, 16, 64, true, 0);
            Testbed.Exposed sinkBuffer = bed.expose(1, 16, 64, false, 0);
            int source = sourceBuffer.switchQueuePair();
            int sink = sinkBuffer.switchQueuePair();
            bed.start();
            SwitchControl control = bed.zeroSidedSwitch.control();

            refused(() -> control.installOneToOne(sink, source), "endpoint " + sink + " is a consumer buffer");
            refused(() -> control.installOneToOne(source, 99), "no endpoint 99");
            refused(() -> control.installLoadBalance(new int[0], new int[] {sink}), "no producer buffers");
            refused(() -> control.installReplication(new int[] {source}, new int[] {source}), "is a producer buffer");
            refused(() -> control.installShuffle(new int[][] {{source, source}}, new int[] {sink}), "has 2 buffers");
            refused(() -> control.setWeight(7, 1), "no flow 7");
            refused(() -> control.removeFlow(-1), "no flow -1");
            refused(() -> control.addConsumer(0, sink), "no flow 0");

            int flow = control.installOneToOne(source, sink);
            refused(() -> control.addConsumer(flow, sink), "not a load-balancing flow");
            refused(() -> control.addProducer(flow, source), "not a load-balancing flow");
            refused(() -> control.removeConsumer(source), "is a producer buffer");
            refused(() -> control.setWeight(flow, Double.NaN), "weight must be positive");

            int items = 500;
            ZeroSidedBuffer producer = sourceBuffer.exposure().view(null);
            ZeroSidedBuffer consumer = sinkBuffer.exposure().view(null);
            Thread producing = Thread.ofPlatform().start(() -> {
                for (long i = 0; i < items; i++) {
                    long slot;
                    while ((slot = producer.claimSlot()) == ZeroSidedBuffer.NONE) {
                        Thread.onSpinWait();
                    }
                    producer.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, i);
                    producer.push();
                }
            });
            long deadline = System.nanoTime() + WAIT_NS;
            long expected = 0;
            while (expected < items && System.nanoTime() - deadline < 0) {
                long slot = consumer.nextSlot();
                if (slot < 0) {
                    Thread.onSpinWait();
                    continue;
                }
                assertThat(consumer.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot))
                        .isEqualTo(expected++);
                consumer.pop();
            }
            producing.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NS));
            assertThat(expected)
                    .as("items delivered after the refused commands")
                    .isEqualTo(items);
            assertThat(bed.runner().failure()).isNull();
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
        }
    }

    private static void refused(ThrowingCallable call, String message) {
        assertThatThrownBy(call)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
