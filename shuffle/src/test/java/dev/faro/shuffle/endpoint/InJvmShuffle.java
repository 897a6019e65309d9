package dev.faro.shuffle.endpoint;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaultInjection;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Runs one shuffle with every node in this JVM over {@code shm}: each node's sending threads produce 16-byte tuples
 * (a hashed key and a value unique in the run) through {@link ShuffleSink}, its receiving threads read vectors
 * through {@link ReceiveSource} and count what arrives, an order-independent
 * checksum, and (when asked) tuples that arrive out of order per sending thread.
 */
final class InJvmShuffle {

    static final int TUPLE_BYTES = 16;

    /** What every node received, next to what it should have. */
    record Result(long[] count, long[] sum, long[] outOfOrder, long[] expectedCount, long[] expectedSum) {
        boolean exactlyOnce() {
            return Arrays.equals(count, expectedCount) && Arrays.equals(sum, expectedSum);
        }
    }

    private InJvmShuffle() {}

    static long key(int node, int thread, int i) {
        return Partitioner.mix(((long) node << 40) ^ ((long) thread << 32) ^ i);
    }

    static long value(int node, int thread, int i) {
        return (long) node << 40 | (long) thread << 32 | i;
    }

    /**
     * Runs the shuffle; a node failure surfaces as the {@link ExecutionException} of its run (the first one).
     *
     * @param checkOrder count out-of-order tuples (meaningful with one receiving thread and disjoint groups)
     */
    static Result run(
            Path directory,
            EndpointConfig config,
            TransmissionGroups groups,
            int tuplesPerThread,
            FaultInjection faults,
            boolean checkOrder)
            throws ExecutionException, InterruptedException {
        return run(
                node -> FabricConfig.of("shm", "node-" + node)
                        .withOption("shm.directory", directory.toString())
                        .withFaults(faults),
                config,
                groups,
                tuplesPerThread,
                checkOrder);
    }

    /** As {@link #run(Path, EndpointConfig, TransmissionGroups, int, FaultInjection, boolean)}, on any provider. */
    static Result run(
            java.util.function.IntFunction<FabricConfig> fabricConfigs,
            EndpointConfig config,
            TransmissionGroups groups,
            int tuplesPerThread,
            boolean checkOrder)
            throws ExecutionException, InterruptedException {
        int nodes = groups.nodes();
        int threads = config.threads();
        Partitioner partitioner = Partitioner.hashLongKey(groups.groupCount());
        long[] expectedCount = new long[nodes];
        long[] expectedSum = new long[nodes];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuple = arena.allocate(TUPLE_BYTES);
            for (int node = 0; node < nodes; node++) {
                for (int thread = 0; thread < threads; thread++) {
                    for (int i = 0; i < tuplesPerThread; i++) {
                        tuple.set(ValueLayout.JAVA_LONG, 0, key(node, thread, i));
                        for (int member : groups.members(partitioner.group(tuple, 0))) {
                            expectedCount[member]++;
                            expectedSum[member] += Partitioner.mix(value(node, thread, i));
                        }
                    }
                }
            }
        }
        AtomicLongArray count = new AtomicLongArray(nodes);
        AtomicLongArray sum = new AtomicLongArray(nodes);
        AtomicLongArray outOfOrder = new AtomicLongArray(nodes);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(nodes, Duration.ofSeconds(20));
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<?>> nodeRuns = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                nodeRuns.add(pool.submit(() -> {
                    FabricConfig fabricConfig = fabricConfigs.apply(self);
                    try (Fabric fabric = Fabrics.open(fabricConfig);
                            NodeEndpoints endpoints =
                                    EndpointFactory.open(fabric, exchange.member(self), "test", config, groups)) {
                        ShuffleSink sink = new ShuffleSink(endpoints, groups, partitioner, TUPLE_BYTES, threads);
                        runThreads(
                                sink,
                                endpoints,
                                self,
                                nodes,
                                threads,
                                tuplesPerThread,
                                checkOrder,
                                count,
                                sum,
                                outOfOrder);
                    }
                    return null;
                }));
            }
            for (Future<?> run : nodeRuns) {
                try {
                    run.get(120, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("a node hung for 120 s", e);
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        return new Result(toArray(count), toArray(sum), toArray(outOfOrder), expectedCount, expectedSum);
    }

    private static long[] toArray(AtomicLongArray values) {
        long[] copy = new long[values.length()];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = values.get(i);
        }
        return copy;
    }

    private static void runThreads(
            ShuffleSink sink,
            NodeEndpoints endpoints,
            int self,
            int nodes,
            int threads,
            int tuplesPerThread,
            boolean checkOrder,
            AtomicLongArray count,
            AtomicLongArray sum,
            AtomicLongArray outOfOrder)
            throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(2 * threads);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int t = thread;
                runs.add(workers.submit(() -> {
                    send(sink.writer(t), self, t, tuplesPerThread);
                    return null;
                }));
                runs.add(workers.submit(() -> {
                    receive(endpoints.receiver(t), self, nodes, threads, checkOrder, count, sum, outOfOrder);
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(100, TimeUnit.SECONDS);
            }
        } finally {
            workers.shutdownNow();
        }
    }

    private static void send(ShuffleSink.Writer writer, int node, int thread, int tuplesPerThread) {
        try (Arena arena = Arena.ofConfined()) {
            int batch = 1000;
            MemorySegment tuples = arena.allocate((long) batch * TUPLE_BYTES);
            for (int start = 0; start < tuplesPerThread; start += batch) {
                int n = Math.min(batch, tuplesPerThread - start);
                for (int i = 0; i < n; i++) {
                    tuples.set(ValueLayout.JAVA_LONG, (long) i * TUPLE_BYTES, key(node, thread, start + i));
                    tuples.set(ValueLayout.JAVA_LONG, (long) i * TUPLE_BYTES + 8, value(node, thread, start + i));
                }
                writer.add(tuples, 0, n);
            }
        }
        writer.finish();
    }

    private static void receive(
            ReceiveEndpoint endpoint,
            int node,
            int nodes,
            int threads,
            boolean checkOrder,
            AtomicLongArray count,
            AtomicLongArray sum,
            AtomicLongArray outOfOrder) {
        long[][] last = new long[nodes][threads];
        for (long[] row : last) {
            Arrays.fill(row, -1);
        }
        long localCount = 0;
        long localSum = 0;
        long localOutOfOrder = 0;
        ReceiveSource source = new ReceiveSource(endpoint, TUPLE_BYTES);
        try (Arena arena = Arena.ofConfined()) {
            // even nodes copy out into 100 tuples (not a multiple of a buffer's tuples, so buffers are copied in parts
            // and carried over); odd nodes read each buffer in place
            boolean inPlace = node % 2 == 1;
            MemorySegment output = arena.allocate(100L * TUPLE_BYTES);
            int tuples;
            while ((tuples = inPlace ? source.nextInPlace() : source.next(output)) > 0) {
                MemorySegment data = inPlace ? source.inPlace() : output;
                for (int t = 0; t < tuples; t++) {
                    long value = data.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) t * TUPLE_BYTES + 8);
                    localCount++;
                    localSum += Partitioner.mix(value);
                    if (checkOrder) {
                        int sourceNode = (int) (value >>> 40);
                        int sourceThread = (int) (value >>> 32 & 0xff);
                        int i = (int) value;
                        if (i <= last[sourceNode][sourceThread]) {
                            localOutOfOrder++;
                        }
                        last[sourceNode][sourceThread] = i;
                    }
                }
            }
            if (!source.isFinished()) {
                throw new IllegalStateException("the source is not finished after its last tuple");
            }
        }
        count.addAndGet(node, localCount);
        sum.addAndGet(node, localSum);
        outOfOrder.addAndGet(node, localOutOfOrder);
    }
}
