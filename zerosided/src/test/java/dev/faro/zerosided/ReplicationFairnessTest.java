package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Producers of one replication flow take turns (paper Fig. 14): three producers whose buffers are full before the
 * switch starts (so no PU thread's timing decides anything) each get a third of the consumers' sequence, within 10 %,
 * in every half of it, and every consumer sees the same sequence.
 */
class ReplicationFairnessTest {

    @Test
    void backloggedProducersShareTheFlowEvenly() throws Exception {
        int producers = 3;
        int consumers = 2;
        int perProducer = 600;
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(8 * 32).withRetryTimeoutNs(2_000_000);
        try (Testbed bed = new Testbed(config, FaultInjection.NONE, 0, producers + consumers)) {
            int[] producerBuffers = new int[producers];
            for (int p = 0; p < producers; p++) {
                Testbed.Exposed exposed = bed.expose(p, perProducer, 32, true, 0);
                producerBuffers[p] = exposed.switchQueuePair();
                ZeroSidedBuffer view = exposed.exposure().view(null);
                for (int i = 0; i < perProducer; i++) {
                    ZeroSidedFlowTest.push(view, Items.id(p, i));
                }
                view.finish();
            }
            int[] consumerBuffers = new int[consumers];
            List<ZeroSidedBuffer> consumerViews = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                Testbed.Exposed exposed = bed.expose(producers + c, 64, 32, false, 0);
                consumerBuffers[c] = exposed.switchQueuePair();
                consumerViews.add(exposed.exposure().view(null));
            }
            bed.zeroSidedSwitch.control().installReplication(producerBuffers, consumerBuffers);
            bed.start();
            List<List<Long>> received = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (ZeroSidedBuffer view : consumerViews) {
                List<Long> into = new ArrayList<>();
                received.add(into);
                threads.add(Thread.ofPlatform().start(() -> into.addAll(ZeroSidedFlowTest.consume(view, bed))));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            List<Long> sequence = received.getFirst();
            assertThat(sequence).hasSize(producers * perProducer);
            assertThat(received.get(1)).as("global order").isEqualTo(sequence);
            int half = sequence.size() / 2;
            for (List<Long> part : List.of(sequence.subList(0, half), sequence.subList(half, sequence.size()))) {
                for (int p = 0; p < producers; p++) {
                    int producer = p;
                    double share = part.stream()
                                    .filter(id -> Items.producer(id) == producer)
                                    .count()
                            / (double) part.size();
                    assertThat(share)
                            .as("producer %d's share", p)
                            .isCloseTo(1.0 / producers, Offset.offset(0.1 / producers));
                }
            }
        }
    }
}
