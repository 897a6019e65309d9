package dev.faro.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DAIS16 §3.1: the network thread keeps a list of the buffers with data, so no buffer is polled actively. A worker
 * visits an incoming ring only when a WRITTEN notification or a same-process publication put it on its list.
 */
class NoActivePollingTest {

    @Test
    void pollsOfAnIdleMiddlewareVisitNoRing() throws Exception {
        MiddlewareConfig config = ShuffleMiddlewareTest.smallRings(3, 2);
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            List<Long> visits = cluster.runOnEveryWorker(worker -> {
                MemorySegment into = Arena.ofAuto().allocate(64);
                for (int i = 0; i < 10_000; i++) {
                    assertThat(worker.poll(0, into)).isEqualTo(ShuffleQueues.NONE);
                }
                return ((MiddlewareWorker) worker).ringVisits;
            });
            assertThat(visits).containsOnly(0L);
        }
    }

    /**
     * Every worker gathers rows to worker 0 through rings far smaller than the data; the others receive only ends of
     * stream. A ring is visited only after an announcement: the visits that find nothing to read are no more than the
     * announcements (a ring announced again after its reader already read the new data), whatever a worker polled
     * meanwhile; scanning every ring on every poll would make them thousands.
     */
    @Test
    void ringsAreVisitedOnlyAfterAnnouncementsAndEveryRowArrivesOnce() throws Exception {
        MiddlewareConfig config = ShuffleMiddlewareTest.smallRings(3, 2);
        int rows = 5_000;
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            List<long[]> results = cluster.runOnEveryWorker(worker -> {
                MemorySegment into = Arena.ofAuto().allocate(64);
                long count = 0;
                long sum = 0;
                for (int i = 0; i < rows; i++) {
                    worker.gatherLong(0, (long) worker.id() * rows + i);
                    if (worker.poll(0, into) >= 0) { // a poll between sends finds rows only at the master
                        count++;
                        sum += ShuffleQueues.longAt(into);
                    }
                }
                worker.endOfStream(0);
                int length;
                while ((length = worker.take(0, into)) != ShuffleQueues.END) {
                    assertThat(length).isEqualTo(Long.BYTES);
                    count++;
                    sum += ShuffleQueues.longAt(into);
                }
                MiddlewareWorker middlewareWorker = (MiddlewareWorker) worker;
                return new long[] {count, sum, middlewareWorker.idleRingVisits, middlewareWorker.announcements()};
            });
            long total = (long) config.workers() * rows;
            assertThat(results.get(0)[0]).isEqualTo(total);
            assertThat(results.get(0)[1]).isEqualTo(total * (total - 1) / 2);
            for (int worker = 0; worker < results.size(); worker++) {
                long[] result = results.get(worker);
                assertThat(result[2])
                        .as("idle ring visits of worker %d against announcements %d", worker, result[3])
                        .isLessThanOrEqualTo(result[3]);
                assertThat(result[3]).isPositive();
                if (worker != 0) {
                    assertThat(result[0]).isZero();
                    assertThat(result[3])
                            .as("worker %d received one end of stream per sender", worker)
                            .isLessThanOrEqualTo(config.workers());
                }
            }
        }
    }
}
