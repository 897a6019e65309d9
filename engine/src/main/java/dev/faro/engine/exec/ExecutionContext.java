package dev.faro.engine.exec;

import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.time.Duration;
import java.util.Objects;

/**
 * What one node needs to execute a plan: its index and the node count, its {@link Catalog}, the worker threads per
 * pipeline, and with more than one node the {@link ExchangeTransport} every exchange of the query goes over (the
 * engine knows nothing else of how rows move), a query id naming the query's exchanges uniquely (the same on every
 * node), the {@link ProgressSignal} its drivers advance (what keeps a transport's waits from reporting a stall while
 * the query progresses elsewhere) and how long, after a failure, threads blocked in the transport may take to stop
 * (the transport's stall timeout), and how many threads at most run its drivers at once ({@code driverThreads}, 0:
 * one per runnable driver; see {@link #withDriverThreads}). With one node exchanges pass rows through and
 * {@code transport} is null.
 */
public record ExecutionContext(
        int nodeIndex,
        int nodeCount,
        Catalog catalog,
        int threads,
        ExchangeTransport transport,
        String queryId,
        ProgressSignal progress,
        Duration stallTimeout,
        int driverThreads) {

    /** The stall timeout when none is given: the endpoints' default. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(30);

    public ExecutionContext {
        Objects.requireNonNull(catalog, "catalog is null");
        Objects.requireNonNull(queryId, "queryId is null");
        if (nodeCount < 1 || nodeIndex < 0 || nodeIndex >= nodeCount) {
            throw new IllegalArgumentException(
                    "bad node index or count: nodeIndex=" + nodeIndex + " nodeCount=" + nodeCount);
        }
        if (driverThreads < 0) {
            throw new IllegalArgumentException("driverThreads must not be negative: driverThreads=" + driverThreads);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        if (progress == null) {
            progress = ProgressSignal.NONE;
        }
        if (stallTimeout == null) {
            stallTimeout = DEFAULT_STALL_TIMEOUT;
        }
        if (nodeCount > 1) {
            Objects.requireNonNull(transport, "transport is null (needed with more than one node)");
            if (transport.nodeCount() != nodeCount || transport.nodeIndex() != nodeIndex) {
                throw new IllegalArgumentException("the transport disagrees: transport node " + transport.nodeIndex()
                        + " of " + transport.nodeCount() + ", context node " + nodeIndex + " of " + nodeCount);
            }
        }
    }

    /** The default thread count: {@code -Dfaro.engine.threads}, else the available processors. */
    public static int defaultThreads() {
        return Integer.getInteger("faro.engine.threads", Runtime.getRuntime().availableProcessors());
    }

    /** A single-node context: exchanges are pass-throughs. */
    public static ExecutionContext local(Catalog catalog, int threads) {
        return new ExecutionContext(0, 1, catalog, threads, null, "local", null, null, defaultDriverThreads());
    }

    /** One node of a distributed query; node index and count come from {@code transport}. */
    public static ExecutionContext distributed(
            Catalog catalog, int threads, ExchangeTransport transport, String queryId) {
        return new ExecutionContext(
                transport.nodeIndex(),
                transport.nodeCount(),
                catalog,
                threads,
                transport,
                queryId,
                null,
                null,
                defaultDriverThreads());
    }

    /**
     * This context with {@code signal} advanced by its drivers (give the transport's waits the same signal) and
     * {@code timeout} as the transport's stall timeout.
     */
    public ExecutionContext withProgress(ProgressSignal signal, Duration timeout) {
        return new ExecutionContext(
                nodeIndex, nodeCount, catalog, threads, transport, queryId, signal, timeout, driverThreads);
    }

    /**
     * This context with at most {@code count} drivers running at once on this node (0: a thread per runnable driver);
     * a driver blocked on an exchange yields its thread, so fewer threads than drivers cannot deadlock.
     */
    public ExecutionContext withDriverThreads(int count) {
        return new ExecutionContext(
                nodeIndex, nodeCount, catalog, threads, transport, queryId, progress, stallTimeout, count);
    }

    /**
     * The default bound on running drivers: {@code -Dfaro.engine.driverThreads}, else the environment's
     * {@code FARO_ENGINE_DRIVER_THREADS} (which local workers inherit), else 0 (a thread per runnable driver).
     */
    public static int defaultDriverThreads() {
        Integer property = Integer.getInteger("faro.engine.driverThreads");
        if (property != null) {
            return property;
        }
        String environment = System.getenv("FARO_ENGINE_DRIVER_THREADS");
        return environment == null || environment.isBlank() ? 0 : Integer.parseInt(environment.trim());
    }
}
