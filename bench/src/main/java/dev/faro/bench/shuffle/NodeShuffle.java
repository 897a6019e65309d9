package dev.faro.bench.shuffle;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.baseline.TcpShuffleOpener;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * One node's part of one {@link ShuffleCase}, inside a cluster worker ({@link ShuffleCaseHandler}): a conductor thread
 * fills each sending thread's table, opens the endpoints through the task's {@link PeerExchange} (relayed by the
 * coordinator), runs {@code threads} SHUFFLE threads (tables through {@link ShuffleSink}, one vector of
 * {@link #VECTOR_TUPLES} at a time) and {@code threads} RECEIVE threads ({@link ReceiveSource}, each buffer read in place; count,
 * checksum, order), closes the endpoints and reports.
 *
 * <p>After the open, one more all-gather, {@link #startedKey}, tells the coordinator that the endpoints are open at
 * every node (each node contributes its fabric node id); the clock starts after it. The {@link #outcome()} completes
 * with the node's {@link NodeResult}, or fails with the first failure of any thread at once, so a peer's death
 * reaches the coordinator as soon as any thread sees it; the conductor then waits for the other threads (their own
 * waits end at the stall timeout at the latest), closes the endpoints and only then counts as {@link #ended()}.
 *
 * <p>Coordination code; the per-tuple loops in {@link #send} and {@link #receive} allocate nothing.
 */
final class NodeShuffle {

    /** Tuples per vector, for SHUFFLE input and RECEIVE output (TODS19: vector-at-a-time). */
    static final int VECTOR_TUPLES = 1024;

    /** After the first failure, how much longer than the stall timeout the other threads get to stop. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Fabric fabric;
    private final SharedSecret secret;
    /** This node's directory of the {@code shm} fabric; null on other fabrics. */
    private final Path nodeDirectory;

    private final ShuffleCase shuffleCase;
    private final int caseId;
    private final int node;
    private final CompletableFuture<NodeResult> outcome = new CompletableFuture<>();
    private final PeerExchange exchange;
    private final Thread conductor;
    private final AtomicBoolean failed = new AtomicBoolean();
    private volatile long failedAtNanos;
    /** Set when threads of this case did not stop after a failure: the worker should be replaced. */
    private volatile boolean stuck;
    /** Where the receive work's result goes, so that the JIT keeps it (any RECEIVE thread writes it). */
    private volatile long burnSink;

    // Per thread, written by that thread before it ends, read by the conductor after joining it.
    private final long[] counts;
    private final long[] checksums;
    private final long[] outOfOrders;
    private final long[] receiveEndNanos;

    NodeShuffle(
            Fabric fabric,
            SharedSecret secret,
            Path nodeDirectory,
            ShuffleCase shuffleCase,
            int caseId,
            int node,
            PeerExchange exchange) {
        this.fabric = fabric;
        this.secret = secret;
        this.nodeDirectory = nodeDirectory;
        this.shuffleCase = shuffleCase;
        this.caseId = caseId;
        this.node = node;
        this.exchange = exchange;
        int threads = shuffleCase.threads();
        this.counts = new long[threads];
        this.checksums = new long[threads];
        this.outOfOrders = new long[threads];
        this.receiveEndNanos = new long[threads];
        this.conductor = Thread.ofPlatform()
                .daemon()
                .name("case-" + caseId + "-conductor")
                .unstarted(this::conduct);
    }

    void start() {
        conductor.start();
    }

    /** The all-gather key that marks case {@code caseId} as started at every node (values: fabric node ids). */
    static String startedKey(int caseId) {
        return "case-" + caseId + "/started";
    }

    /** Completes with this node's result once the endpoints are closed; fails at once with the first failure. */
    CompletableFuture<NodeResult> outcome() {
        return outcome;
    }

    /** Waits up to {@code wait} for the conductor to finish (endpoints closed); returns whether it has. */
    boolean awaitEnd(Duration wait) throws InterruptedException {
        return conductor.join(wait);
    }

    boolean ended() {
        return !conductor.isAlive();
    }

    /** Whether threads of this case were still running long after it failed (the worker should be replaced). */
    boolean stuck() {
        return stuck;
    }

    private void conduct() {
        int threads = shuffleCase.threads();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] tables = new MemorySegment[threads];
            int rows = shuffleCase.sends(node) ? shuffleCase.tuplesPerThread() : 0;
            for (int thread = 0; thread < threads; thread++) {
                tables[thread] = arena.allocate(Math.max(1, (long) rows * ShuffleTuples.TUPLE_BYTES), 8);
                ShuffleTuples.fill(tables[thread], node, thread, rows);
            }
            TransmissionGroups groups = shuffleCase.groups();
            long elapsedNanos;
            long openStartNanos = System.nanoTime();
            TimedPeerExchange timedExchange = new TimedPeerExchange(exchange);
            NodeEndpoints endpoints = shuffleCase.isTcp()
                    ? TcpShuffleOpener.open(timedExchange, "case-" + caseId, shuffleCase.tcpConfig(), groups, secret)
                    : EndpointFactory.open(
                            fabric, timedExchange, "case-" + caseId, shuffleCase.endpointConfig(), groups);
            long openNanos = System.nanoTime() - openStartNanos;
            long closeNanos = 0;
            long[] counters = new long[4];
            try {
                exchange.allGather(
                        startedKey(caseId),
                        String.format("%016x", fabric.node()).getBytes(StandardCharsets.US_ASCII));
                long startNanos = System.nanoTime();
                ShuffleSink sink = new ShuffleSink(
                        endpoints,
                        groups,
                        Partitioner.hashLongKey(groups.groupCount()),
                        ShuffleTuples.TUPLE_BYTES,
                        threads);
                List<Thread> running = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    int t = thread;
                    MemorySegment table = tables[t];
                    running.add(Thread.ofPlatform()
                            .daemon()
                            .name("case-" + caseId + "-shuffle-" + t)
                            .start(() -> guarded(() -> send(sink.writer(t), table, rows))));
                    running.add(Thread.ofPlatform()
                            .daemon()
                            .name("case-" + caseId + "-receive-" + t)
                            .start(() -> guarded(() -> receive(endpoints, t))));
                }
                joinAll(running);
                elapsedNanos = Arrays.stream(receiveEndNanos).max().orElse(startNanos) - startNanos;
                counters = counters(endpoints);
            } finally {
                if (!stuck) {
                    long closeStartNanos = System.nanoTime();
                    closeEndpoints(endpoints);
                    closeNanos = System.nanoTime() - closeStartNanos;
                }
            }
            if (!failed.get()) {
                long count = Arrays.stream(counts).sum();
                NodeResult result = new NodeResult(
                        count,
                        Arrays.stream(checksums).sum(),
                        Arrays.stream(outOfOrders).sum(),
                        count * ShuffleTuples.TUPLE_BYTES,
                        elapsedNanos,
                        leftoverFiles(),
                        openNanos + closeNanos,
                        counters[0],
                        counters[1],
                        counters[2],
                        counters[3],
                        openNanos - timedExchange.exchangeNanos());
                outcome.complete(result);
            }
        } catch (Throwable e) {
            fail(e);
        }
    }

    /**
     * The node's resource counters, each endpoint counted once (SE shares one across threads): credit writes, buffer
     * wait, credit wait, data wait (nanoseconds, summed over threads).
     */
    private static long[] counters(NodeEndpoints endpoints) {
        long[] counters = new long[4];
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (var sender : endpoints.senders()) {
            if (seen.add(sender)) {
                counters[1] += sender.bufferWaitNanos();
                counters[2] += sender.creditWaitNanos();
            }
        }
        for (var receiver : endpoints.receivers()) {
            if (seen.add(receiver)) {
                counters[0] += receiver.creditWrites();
                counters[3] += receiver.dataWaitNanos();
            }
        }
        return counters;
    }

    private void closeEndpoints(NodeEndpoints endpoints) {
        try {
            endpoints.close();
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    /** Joins the case's threads; after a failure gives them the stall timeout plus a grace to stop. */
    private void joinAll(List<Thread> threads) throws InterruptedException {
        Duration bound = shuffleCase.stallTimeout().plus(STOP_GRACE);
        for (Thread thread : threads) {
            while (!thread.join(Duration.ofMillis(100))) {
                if (failed.get() && System.nanoTime() - failedAtNanos > bound.toNanos()) {
                    stuck = true;
                    return;
                }
            }
        }
    }

    private void guarded(Runnable body) {
        try {
            body.run();
        } catch (Throwable e) {
            fail(e);
        }
    }

    /** Reports the first failure of the case at once; later ones are consequences and stay local. */
    private void fail(Throwable failure) {
        if (failed.compareAndSet(false, true)) {
            failedAtNanos = System.nanoTime();
            outcome.completeExceptionally(failure);
        }
        if (!(failure instanceof FaroException || failure instanceof CaseAbortedException)) {
            failure.printStackTrace(System.err);
        }
    }

    private void send(ShuffleSink.Writer writer, MemorySegment table, int rows) {
        for (int scan = 0; scan < shuffleCase.scans(); scan++) {
            for (int first = 0; first < rows; first += VECTOR_TUPLES) {
                if (failed.get()) {
                    throw new CaseAbortedException();
                }
                writer.add(table, (long) first * ShuffleTuples.TUPLE_BYTES, Math.min(VECTOR_TUPLES, rows - first));
            }
        }
        writer.finish();
    }

    private void receive(NodeEndpoints endpoints, int thread) {
        boolean checkOrder = shuffleCase.ordered();
        int nodes = shuffleCase.nodes();
        long[] lastRow = new long[nodes * shuffleCase.threads()];
        Arrays.fill(lastRow, -1);
        long count = 0;
        long checksum = 0;
        long outOfOrder = 0;
        long burned = 0;
        int work = shuffleCase.tuning().receiveWork(node);
        ReceiveSource source = new ReceiveSource(endpoints.receiver(thread), ShuffleTuples.TUPLE_BYTES);
        // the receiver only reads: it consumes each buffer where it arrived (as MPI's receiver does) and releases it
        // at the next call, instead of copying it into a vector first
        int tuples;
        while ((tuples = source.nextInPlace()) > 0) {
            MemorySegment data = source.inPlace();
            for (int i = 0; i < tuples; i++) {
                long value = data.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * ShuffleTuples.TUPLE_BYTES + 8);
                checksum += Partitioner.mix(value);
                if (checkOrder) {
                    int stream = ShuffleTuples.node(value) * shuffleCase.threads() + ShuffleTuples.thread(value);
                    long row = ShuffleTuples.row(value);
                    if (row <= lastRow[stream]) {
                        outOfOrder++;
                    }
                    lastRow[stream] = row;
                }
            }
            burned += burn(data, tuples, work);
            count += tuples;
            if (failed.get()) {
                throw new CaseAbortedException();
            }
        }
        counts[thread] = count;
        checksums[thread] = checksum;
        outOfOrders[thread] = outOfOrder;
        receiveEndNanos[thread] = System.nanoTime();
        burnSink = burned;
    }

    /**
     * The receive side's compute intensity (TODS19 §7.1.2: the batch is summed again and again): {@code passes}
     * hashes of every tuple of the vector. Returns the sum, so that the work is not optimized away.
     */
    static long burn(MemorySegment vector, int tuples, int passes) {
        long sum = 0;
        for (int pass = 0; pass < passes; pass++) {
            for (int i = 0; i < tuples; i++) {
                sum += Partitioner.mix(
                        vector.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * ShuffleTuples.TUPLE_BYTES) + pass);
            }
        }
        return sum;
    }

    /**
     * Files in this node's shared-memory directory besides its node file: what the endpoints did not release (0 when
     * the fabric has no such directory).
     */
    private int leftoverFiles() {
        if (nodeDirectory == null) {
            return 0;
        }
        try (Stream<Path> files = Files.list(nodeDirectory)) {
            return (int) files.filter(file -> !file.getFileName().toString().equals("node"))
                    .count();
        } catch (IOException e) {
            throw new FaroException(FaroException.Category.IO, "cannot list " + nodeDirectory + ": " + e, e);
        }
    }

    /** Ends a thread of a case that already failed elsewhere; never reported (the first failure is). */
    static final class CaseAbortedException extends RuntimeException {
        CaseAbortedException() {
            super("the case failed in another thread", null, false, false);
        }
    }
}
