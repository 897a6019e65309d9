package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.FaroException;
import dev.faro.middleware.MiddlewareConfig;
import dev.faro.middleware.MiddlewareCounters;
import dev.faro.middleware.NioShuffle;
import dev.faro.middleware.ShuffleMiddleware;
import dev.faro.middleware.ShuffleQueues;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Cluster task {@value #TYPE}: one {@link MiddlewareCase} on this node. Opens the middleware on the worker's fabric
 * (or the NIO baseline) through the task's all-gather, then runs the paper's plan (Fig. 2) on one thread per
 * worker: generate sequential integers → shuffle #1 (to {@code value mod workers}) → re-key by a hash, so that
 * most rows move → shuffle #2, counting and summing what arrives. The timed part lies between two all-gathers (all
 * nodes start together); the reply carries this node's time, the row count and sum (checked by the coordinator),
 * and the middleware's counters.
 *
 * <p>Coordination code around the workers' loops, which are the measured data path.
 */
public final class MiddlewareBenchHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.middleware";

    @Override
    public String type() {
        return TYPE;
    }

    /** Stage 2's destination: a multiplicative hash, so that rows leave the worker stage 1 brought them to. */
    static int reKey(long value, int workers) {
        return (int) (((value * 0x9E3779B97F4A7C15L) >>> 33) % workers);
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        MiddlewareCase point = MiddlewareCase.fromJson(payload);
        if (point.processes() != context.nodes()) {
            throw new IllegalArgumentException(
                    "case for " + point.processes() + " processes on a round of " + context.nodes());
        }
        int node = context.nodeIndex();
        MiddlewareConfig config = MiddlewareConfig.defaults(point.processes(), point.workersPerProcess())
                .withRingBytes(point.ringBytes())
                .withWriteThreshold(point.writeThreshold());
        ShuffleMiddleware middleware = null;
        NioShuffle nio = null;
        try {
            List<ShuffleQueues> queues = new ArrayList<>();
            int connections;
            if (point.transport().equals(MiddlewareCase.NIO)) {
                nio = NioShuffle.open(config, context.exchange());
                for (int local = 0; local < config.workersPerProcess(); local++) {
                    queues.add(nio.worker(local));
                }
                connections = nio.connectionCount();
            } else {
                middleware = ShuffleMiddleware.open(context.fabric(), config, context.exchange());
                for (int local = 0; local < config.workersPerProcess(); local++) {
                    queues.add(middleware.worker(local));
                }
                connections = middleware.connectionCount();
            }
            context.exchange().allGather("middleware.start", new byte[0]);
            long[] received = new long[2];
            long cpuBefore = processCpuNanos();
            long elapsedNs = runPlan(queues, point, node, received);
            long cpuNs = processCpuNanos() - cpuBefore;
            context.exchange().allGather("middleware.done", new byte[0]);
            ObjectNode reply = JsonNodeFactory.instance
                    .objectNode()
                    .put("elapsedNs", elapsedNs)
                    .put("cpuNs", cpuNs)
                    .put("rows", received[0])
                    .put("sum", received[1])
                    .put("connections", connections);
            if (middleware != null) {
                MiddlewareCounters counters = middleware.counters();
                reply.put("rings", middleware.ringCount())
                        .put("writes", counters.writesPosted())
                        .put("remoteBytes", counters.remoteBytes())
                        .put("notificationMessages", counters.notificationMessages())
                        .put("notificationEntries", counters.notificationEntries())
                        .put("sendBlocks", counters.sendBlocks());
            } else {
                reply.put("rings", connections * 2);
            }
            return TaskReply.of(reply);
        } finally {
            if (middleware != null) {
                middleware.close();
            }
            if (nio != null) {
                nio.close();
            }
        }
    }

    /** CPU time this whole worker JVM used so far (every thread: workers, network thread, GC), or 0 if unknown. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime())
                : 0;
    }

    private static long runPlan(List<ShuffleQueues> queues, MiddlewareCase point, int node, long[] received)
            throws InterruptedException {
        int perProcess = queues.size();
        long rowsPerWorker = point.rowsPerProcess() / perProcess;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long[][] results = new long[perProcess][2];
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        for (int local = 0; local < perProcess; local++) {
            ShuffleQueues worker = queues.get(local);
            long[] result = results[local];
            long first = point.rowsPerProcess() * node + rowsPerWorker * local;
            threads.add(Thread.ofPlatform()
                    .name("faro-middleware-worker-" + local)
                    .start(() -> {
                        try {
                            runWorker(worker, first, rowsPerWorker, result);
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        }
                    }));
        }
        try {
            for (Thread thread : threads) {
                thread.join();
            }
        } catch (InterruptedException e) {
            // cancelled (a peer died, the user stopped): stop the workers before the middleware closes under them
            for (Thread thread : threads) {
                thread.interrupt();
            }
            for (Thread thread : threads) {
                thread.join(10_000);
            }
            throw e;
        }
        long elapsed = System.nanoTime() - start;
        Throwable failed = failure.get();
        if (failed instanceof FaroException faro) {
            throw faro;
        }
        if (failed != null) {
            throw new IllegalStateException("a middleware worker failed: " + failed, failed);
        }
        for (long[] result : results) {
            received[0] += result[0];
            received[1] += result[1];
        }
        return elapsed;
    }

    /**
     * The paper's plan for one worker (Fig. 2), pulled as its Volcano operators are (§2.1): shuffle #2 first returns
     * a row that arrived for it; else its child, the re-key over shuffle #1, takes a row that arrived for shuffle #1
     * and sends it on; else shuffle #1's child, the generator, makes the next integer and shuffle #1 sends it. So
     * rows are consumed as they arrive, and a worker blocks only when it has nothing left to generate.
     */
    private static void runWorker(ShuffleQueues worker, long first, long count, long[] result) {
        int workers = worker.workers();
        MemorySegment into = Arena.ofAuto().allocate(64);
        long next = first;
        long end = first + count;
        boolean generated = false;
        boolean firstEnded = false;
        long rows = 0;
        long sum = 0;
        while (true) {
            int length = worker.poll(1, into);
            if (length == ShuffleQueues.END) {
                break;
            }
            if (length >= 0) {
                rows++;
                sum += ShuffleQueues.longAt(into);
                continue;
            }
            if (firstEnded) {
                length = worker.take(1, into);
                if (length == ShuffleQueues.END) {
                    break;
                }
                rows++;
                sum += ShuffleQueues.longAt(into);
                continue;
            }
            length = next < end || !generated ? worker.poll(0, into) : worker.take(0, into);
            if (length >= 0) {
                long value = ShuffleQueues.longAt(into);
                worker.sendLong(reKey(value, workers), 1, value);
            } else if (length == ShuffleQueues.END) {
                worker.endOfStream(1);
                firstEnded = true;
            } else if (next < end) {
                worker.sendLong((int) (next % workers), 0, next);
                next++;
            } else {
                worker.endOfStream(0);
                generated = true;
            }
        }
        result[0] = rows;
        result[1] = sum;
    }
}
