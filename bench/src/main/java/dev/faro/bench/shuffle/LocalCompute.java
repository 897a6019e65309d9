package dev.faro.bench.shuffle;

import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The no-shuffle baseline of E7 (TODS19 §7.1.7, "relative throughput"): the RECEIVE side's compute on local data.
 * For every node it materializes exactly the tuples that node receives in the case (each sending thread's table
 * partitioned as the shuffle would), and {@code 2 × threads} platform threads per node, all nodes at once, process
 * them vector by vector with the same work as a RECEIVE thread (checksum of every value, then {@link
 * NodeShuffle#burn} passes), {@code scans} times. As many threads as a shuffle node runs (its SHUFFLE and RECEIVE
 * threads), so that on a shared, oversubscribed host the baseline gets the same share of the CPUs as the shuffle it
 * is compared with (with half the threads it measured 3x slower than the shuffles under a load of 11). Each thread
 * first copies its slice into memory of its own (a confined arena, as a RECEIVE thread's vector), then all start
 * together. A node's time is its slowest thread's. The outcome is checked for exactly-once like a shuffle's: same
 * counts, same checksums.
 *
 * <p>Runs in the calling (coordinator) JVM. Coordination code around an allocation-free per-vector loop.
 */
public final class LocalCompute {

    private LocalCompute() {}

    /** Runs the local baseline of {@code shuffleCase} and reports it as a case outcome. */
    public static CaseOutcome run(ShuffleCase shuffleCase) throws InterruptedException {
        int nodes = shuffleCase.nodes();
        int threads = 2 * shuffleCase.threads();
        long[] counts = new long[nodes * threads];
        long[] checksums = new long[nodes * threads];
        long[] endNanos = new long[nodes * threads];
        long[] burned = new long[nodes * threads];
        CountDownLatch ready = new CountDownLatch(nodes * threads);
        CountDownLatch go = new CountDownLatch(1);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[][] slices = received(arena, shuffleCase, threads);
            List<Thread> running = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                for (int thread = 0; thread < threads; thread++) {
                    int slot = node * threads + thread;
                    MemorySegment shared = slices[node][thread];
                    int work = shuffleCase.tuning().receiveWork(node);
                    running.add(Thread.ofPlatform()
                            .daemon()
                            .name("local-compute-" + slot)
                            .start(() -> {
                                try (Arena own = Arena.ofConfined()) {
                                    MemorySegment slice = own.allocate(Math.max(8, shared.byteSize()), 8)
                                            .copyFrom(shared);
                                    ready.countDown();
                                    go.await();
                                    long count = 0;
                                    long checksum = 0;
                                    long burn = 0;
                                    int tuples = (int) (shared.byteSize() / ShuffleTuples.TUPLE_BYTES);
                                    for (int scan = 0; scan < shuffleCase.scans(); scan++) {
                                        for (int first = 0; first < tuples; first += NodeShuffle.VECTOR_TUPLES) {
                                            int n = Math.min(NodeShuffle.VECTOR_TUPLES, tuples - first);
                                            MemorySegment vector = slice.asSlice(
                                                    (long) first * ShuffleTuples.TUPLE_BYTES,
                                                    (long) n * ShuffleTuples.TUPLE_BYTES);
                                            for (int i = 0; i < n; i++) {
                                                checksum += Partitioner.mix(vector.get(
                                                        ValueLayout.JAVA_LONG,
                                                        (long) i * ShuffleTuples.TUPLE_BYTES + 8));
                                            }
                                            burn += NodeShuffle.burn(vector, n, work);
                                            count += n;
                                        }
                                    }
                                    counts[slot] = count;
                                    checksums[slot] = checksum;
                                    burned[slot] = burn;
                                    endNanos[slot] = System.nanoTime();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }));
                }
            }
            ready.await();
            long startNanos = System.nanoTime();
            go.countDown();
            for (Thread thread : running) {
                thread.join();
            }
            long now = System.nanoTime();
            List<NodeOutcome> outcomes = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                long count = 0;
                long checksum = 0;
                long end = startNanos;
                for (int thread = 0; thread < threads; thread++) {
                    int slot = node * threads + thread;
                    count += counts[slot];
                    checksum += checksums[slot];
                    end = Math.max(end, endNanos[slot]);
                }
                outcomes.add(new NodeOutcome.Finished(
                        new NodeResult(count, checksum, 0, count * ShuffleTuples.TUPLE_BYTES, end - startNanos, 0),
                        now));
            }
            return new CaseOutcome(shuffleCase, ShuffleTuples.expected(shuffleCase), outcomes);
        }
    }

    /** Per node and thread: a slice of the tuples the node receives in one scan (split evenly over its threads). */
    private static MemorySegment[][] received(Arena arena, ShuffleCase shuffleCase, int threads) {
        TransmissionGroups groups = shuffleCase.groups();
        int nodes = groups.nodes();
        int groupCount = groups.groupCount();
        long[] perNode = new long[nodes];
        for (int pass = 0; pass < 2; pass++) {
            MemorySegment[] all = new MemorySegment[nodes];
            long[] filled = new long[nodes];
            if (pass == 1) {
                for (int node = 0; node < nodes; node++) {
                    all[node] = arena.allocate(Math.max(1, perNode[node]) * ShuffleTuples.TUPLE_BYTES, 8);
                }
            }
            for (int node = 0; node < nodes; node++) {
                if (!shuffleCase.sends(node)) {
                    continue;
                }
                for (int thread = 0; thread < shuffleCase.threads(); thread++) {
                    for (int row = 0; row < shuffleCase.tuplesPerThread(); row++) {
                        long key = ShuffleTuples.key(node, thread, row);
                        int group =
                                groupCount == 1 ? 0 : (int) Long.remainderUnsigned(Partitioner.mix(key), groupCount);
                        for (int member : groups.members(group)) {
                            if (pass == 0) {
                                perNode[member]++;
                            } else {
                                long offset = filled[member]++ * ShuffleTuples.TUPLE_BYTES;
                                all[member].set(ValueLayout.JAVA_LONG, offset, key);
                                all[member].set(
                                        ValueLayout.JAVA_LONG, offset + 8, ShuffleTuples.value(node, thread, row));
                            }
                        }
                    }
                }
            }
            if (pass == 1) {
                MemorySegment[][] slices = new MemorySegment[nodes][threads];
                for (int node = 0; node < nodes; node++) {
                    long tuples = perNode[node];
                    for (int thread = 0; thread < threads; thread++) {
                        long from = tuples * thread / threads;
                        long to = tuples * (thread + 1) / threads;
                        slices[node][thread] = all[node].asSlice(
                                from * ShuffleTuples.TUPLE_BYTES, (to - from) * ShuffleTuples.TUPLE_BYTES);
                    }
                }
                return slices;
            }
        }
        throw new AssertionError("unreachable");
    }
}
