package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Replication through the switch with 1 % loss, reordering and duplication on every link: every consumer receives
 * every item exactly once, and all consumers receive the same sequence (global order), also with two producers.
 */
class ReplicationTest {

    private static final FaultInjection ONE_PERCENT = new FaultInjection(11, 0.01, 0.01, 0.01);
    private static final SwitchConfig CONFIG = SwitchConfig.DEFAULT.withRetryTimeoutNs(2_000_000);

    @Test
    void oneProducerToThreeConsumersInOneOrder() throws Exception {
        List<List<Long>> received = replicate(1, 3, 3000);
        for (List<Long> sequence : received) {
            assertThat(sequence).hasSize(3000);
            for (int i = 0; i < sequence.size(); i++) {
                assertThat(sequence.get(i)).isEqualTo(Items.id(0, i));
            }
        }
    }

    @Test
    void twoProducersToThreeConsumersSeeTheSameInterleaving() throws Exception {
        List<List<Long>> received = replicate(2, 3, 1500);
        List<Long> first = received.getFirst();
        assertThat(first).hasSize(3000).doesNotHaveDuplicates();
        long[] next = new long[2];
        for (long id : first) {
            assertThat(Items.sequence(id)).isEqualTo(next[Items.producer(id)]++);
        }
        for (List<Long> other : received) {
            assertThat(other).as("global order").isEqualTo(first);
        }
    }

    private static List<List<Long>> replicate(int producers, int consumers, int itemsPerProducer) throws Exception {
        try (Testbed bed = new Testbed(CONFIG, ONE_PERCENT, 0, producers + consumers)) {
            int[] producerBuffers = new int[producers];
            List<ZeroSidedBuffer> producerViews = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                Testbed.Exposed exposed = bed.expose(p, 32, 24, true, 0);
                producerBuffers[p] = exposed.switchQueuePair();
                producerViews.add(exposed.exposure().view(null));
            }
            int[] consumerBuffers = new int[consumers];
            List<ZeroSidedBuffer> consumerViews = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                // different capacities: the batch is bounded by the fullest consumer
                Testbed.Exposed exposed = bed.expose(producers + c, 16 + 8 * c, 24, false, 100 * c);
                consumerBuffers[c] = exposed.switchQueuePair();
                consumerViews.add(exposed.exposure().view(null));
            }
            int flow = bed.zeroSidedSwitch.control().installReplication(producerBuffers, consumerBuffers);
            bed.start();
            List<List<Long>> received = new ArrayList<>();
            // Consumers fail by themselves when the flow makes no progress (ZeroSidedFlowTest.consume); their failure
            // then ends the test, and the producers, which would push into full buffers for ever, are interrupted.
            ExecutorService threads = Executors.newCachedThreadPool();
            try {
                List<Future<?>> producing = new ArrayList<>();
                for (int p = 0; p < producers; p++) {
                    int producer = p;
                    producing.add(threads.submit(
                            () -> ZeroSidedFlowTest.produce(producerViews.get(producer), producer, itemsPerProducer)));
                }
                List<Future<List<Long>>> consuming = new ArrayList<>();
                for (int c = 0; c < consumers; c++) {
                    ZeroSidedBuffer view = consumerViews.get(c);
                    consuming.add(threads.submit(() -> ZeroSidedFlowTest.consume(view, bed)));
                }
                for (Future<List<Long>> consumer : consuming) {
                    received.add(consumer.get());
                }
                for (Future<?> producer : producing) {
                    producer.get();
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(ZeroSidedFlowTest.awaitFinished(bed, flow)).isTrue();
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
            assertThat(bed.zeroSidedSwitch.statistics().payloadBoundViolations())
                    .isZero();
            assertThat(bed.zeroSidedSwitch.statistics().payloadHighWaterBytes()).isLessThanOrEqualTo(1024);
            return received;
        }
    }
}
