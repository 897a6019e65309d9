package dev.faro.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exactly-once and end-of-stream with rings far smaller than the data (1 KiB rings, thousands of rows, so every
 * ring wraps and fills many times), for one to three operators sharing the rings, with operators read in the
 * reverse order of sending (so rows of later operators pile up in the demux queues); gather and broadcast; reuse
 * of an operator id for a second query.
 */
class ShuffleMiddlewareTest {

    private static final int ROWS_PER_OPERATOR = 6_000;

    static MiddlewareConfig smallRings(int processes, int workers) {
        return new MiddlewareConfig(processes, workers, 1024, 128, 128, 64);
    }

    private static long row(int operator, int source, int sequence) {
        return (long) operator << 48 | (long) source << 32 | sequence;
    }

    private static int destination(int source, int sequence, int workers) {
        return Math.floorMod(sequence * 31 + source * 7, workers);
    }

    @ParameterizedTest(name = "{0}: {1} processes x {2} workers, {3} operators")
    @CsvSource({
        "shm, 2, 1, 1",
        "shm, 2, 2, 2",
        "shm, 3, 2, 3",
        "shm, 2, 3, 3",
        "net, 3, 2, 3",
        "nio, 2, 1, 1",
        "nio, 3, 2, 3"
    })
    void everyRowArrivesExactlyOnceAtItsWorker(String transport, int processes, int workersPerProcess, int operators)
            throws Exception {
        MiddlewareConfig config = smallRings(processes, workersPerProcess);
        int workers = config.workers();
        try (MiddlewareCluster cluster = new MiddlewareCluster(transport, config)) {
            List<long[]> received = cluster.runOnEveryWorker(worker -> {
                for (int sequence = 0; sequence < ROWS_PER_OPERATOR; sequence++) {
                    for (int op = 0; op < operators; op++) {
                        worker.sendLong(
                                destination(worker.id(), sequence, workers), op, row(op, worker.id(), sequence));
                    }
                }
                for (int op = 0; op < operators; op++) {
                    worker.endOfStream(op);
                }
                long[] rows = new long[ROWS_PER_OPERATOR * operators * workers];
                int count = 0;
                MemorySegment into = Arena.ofAuto().allocate(64);
                for (int op = operators - 1; op >= 0; op--) {
                    int length;
                    while ((length = worker.take(op, into)) != ShuffleQueues.END) {
                        assertThat(length).isEqualTo(Long.BYTES);
                        long value = ShuffleQueues.longAt(into);
                        assertThat((int) (value >>> 48))
                                .as("operator of a row taken for %d", op)
                                .isEqualTo(op);
                        rows[count++] = value;
                    }
                }
                return Arrays.copyOf(rows, count);
            });
            long total = 0;
            for (int worker = 0; worker < workers; worker++) {
                long[] rows = received.get(worker);
                total += rows.length;
                for (long value : rows) {
                    int source = (int) (value >>> 32) & 0xFFFF;
                    int sequence = (int) value;
                    assertThat(destination(source, sequence, workers)).isEqualTo(worker);
                }
            }
            long[] all =
                    received.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            assertThat(total).isEqualTo((long) ROWS_PER_OPERATOR * operators * workers);
            for (int i = 1; i < all.length; i++) {
                assertThat(all[i]).as("duplicate row").isNotEqualTo(all[i - 1]);
            }
            long writes = cluster.middlewares.stream()
                    .mapToLong(m -> m.counters().writesPosted())
                    .sum();
            assertThat(writes > 0 || transport.equals("nio")).isTrue();
        }
    }

    @Test
    void twoStagesReKeyedLikeThePapersBenchmarkThenTheIdsServeASecondQuery() throws Exception {
        MiddlewareConfig config = smallRings(2, 2);
        int workers = config.workers();
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            for (int query = 0; query < 2; query++) {
                List<long[]> sums = cluster.runOnEveryWorker(worker -> {
                    MemorySegment into = Arena.ofAuto().allocate(64);
                    for (int value = 0; value < ROWS_PER_OPERATOR; value++) {
                        long key = (long) worker.id() * ROWS_PER_OPERATOR + value;
                        worker.sendLong((int) (key % workers), 0, key);
                    }
                    worker.endOfStream(0);
                    long firstStage = 0;
                    while (worker.take(0, into) != ShuffleQueues.END) {
                        long key = ShuffleQueues.longAt(into);
                        assertThat(key % workers).isEqualTo(worker.id());
                        firstStage++;
                        worker.sendLong((int) ((key * 7 + 1) % workers), 1, key);
                    }
                    worker.endOfStream(1);
                    long secondStage = 0;
                    long sum = 0;
                    while (worker.take(1, into) != ShuffleQueues.END) {
                        long key = ShuffleQueues.longAt(into);
                        assertThat((key * 7 + 1) % workers).isEqualTo(worker.id());
                        secondStage++;
                        sum += key;
                    }
                    return new long[] {firstStage, secondStage, sum};
                });
                long n = (long) ROWS_PER_OPERATOR * workers;
                assertThat(sums.stream().mapToLong(s -> s[0]).sum()).isEqualTo(n);
                assertThat(sums.stream().mapToLong(s -> s[1]).sum()).isEqualTo(n);
                assertThat(sums.stream().mapToLong(s -> s[2]).sum()).isEqualTo(n * (n - 1) / 2);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"shm", "nio"})
    void gatherBringsEveryRowToTheMasterAndBroadcastToEveryWorker(String transport) throws Exception {
        MiddlewareConfig config = smallRings(3, 2);
        int workers = config.workers();
        try (MiddlewareCluster cluster = new MiddlewareCluster(transport, config)) {
            List<long[]> counts = cluster.runOnEveryWorker(worker -> {
                MemorySegment into = Arena.ofAuto().allocate(64);
                for (int i = 0; i < 2_000; i++) {
                    worker.gatherLong(0, (long) worker.id() * 2_000 + i);
                    worker.broadcastLong(1, (long) worker.id() * 2_000 + i);
                }
                worker.endOfStream(0);
                worker.endOfStream(1);
                long gathered = 0;
                long gatheredSum = 0;
                while (worker.take(0, into) != ShuffleQueues.END) {
                    gathered++;
                    gatheredSum += ShuffleQueues.longAt(into);
                }
                long broadcast = 0;
                long broadcastSum = 0;
                while (worker.take(1, into) != ShuffleQueues.END) {
                    broadcast++;
                    broadcastSum += ShuffleQueues.longAt(into);
                }
                return new long[] {gathered, gatheredSum, broadcast, broadcastSum};
            });
            long n = 2_000L * workers;
            long sum = n * (n - 1) / 2;
            for (int worker = 0; worker < workers; worker++) {
                long[] c = counts.get(worker);
                if (worker == ShuffleQueues.MASTER) {
                    assertThat(c[0]).isEqualTo(n);
                    assertThat(c[1]).isEqualTo(sum);
                } else {
                    assertThat(c[0]).isZero();
                }
                assertThat(c[2]).isEqualTo(n);
                assertThat(c[3]).isEqualTo(sum);
            }
        }
    }

    @Test
    void oneConnectionPerPeerProcessAgainstOneChannelPerRemoteWorkerPair() throws Exception {
        MiddlewareConfig config = smallRings(4, 2);
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            for (ShuffleMiddleware middleware : cluster.middlewares) {
                assertThat(middleware.connectionCount()).isEqualTo(3); // m - 1
                assertThat(middleware.ringCount()).isEqualTo(3 * 2 * 4 + 4);
            }
        }
        try (MiddlewareCluster cluster = new MiddlewareCluster("nio", config)) {
            for (NioShuffle shuffle : cluster.nio) {
                assertThat(shuffle.connectionCount()).isEqualTo(2 * 2 * 3); // n * n * (m - 1)
            }
        }
    }

    /**
     * Rows of 0 to 60 bytes: records of many sizes, so WRITEs cut by the remote free space end inside records and
     * padding records appear at every wrap; every row must come back whole.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"shm", "nio"})
    void rowsOfEverySizeArriveWhole(String transport) throws Exception {
        MiddlewareConfig config = smallRings(2, 2);
        int workers = config.workers();
        try (MiddlewareCluster cluster = new MiddlewareCluster(transport, config)) {
            List<long[]> results = cluster.runOnEveryWorker(worker -> {
                MemorySegment row = Arena.ofAuto().allocate(64);
                MemorySegment into = Arena.ofAuto().allocate(64);
                for (int sequence = 0; sequence < 4_000; sequence++) {
                    int length = sequence % 61;
                    for (int i = 0; i < length; i++) {
                        row.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (sequence + i));
                    }
                    worker.send(destination(worker.id(), sequence, workers), 0, row, 0, length);
                }
                worker.endOfStream(0);
                long rows = 0;
                long bytes = 0;
                int length;
                while ((length = worker.take(0, into)) != ShuffleQueues.END) {
                    rows++;
                    bytes += length;
                    if (length > 1) {
                        byte first = into.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0);
                        for (int i = 1; i < length; i++) {
                            assertThat(into.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i))
                                    .isEqualTo((byte) (first + i));
                        }
                    }
                }
                return new long[] {rows, bytes};
            });
            long expectedBytes = 0;
            for (int sequence = 0; sequence < 4_000; sequence++) {
                expectedBytes += sequence % 61;
            }
            assertThat(results.stream().mapToLong(r -> r[0]).sum()).isEqualTo(4_000L * workers);
            assertThat(results.stream().mapToLong(r -> r[1]).sum()).isEqualTo(expectedBytes * workers);
        }
    }
}
