package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.engine.tpch.Distribution;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * TPC-H on a cluster (a local one, or workers started by hand on several hosts): has every node generate its share of
 * the database (a setup task, so a replacement worker loads its share again), then runs queries: the plan goes to
 * every node as JSON, node 0's reply holds the answer. Coordination code.
 */
public final class TpchSession implements AutoCloseable {

    /** How long loading may take per unit of scale factor (plus a minute); generous for a busy 2-core machine. */
    private static final Duration LOAD_TIME_PER_SCALE_FACTOR = Duration.ofMinutes(10);

    private static final AtomicLong QUERY_IDS = new AtomicLong();

    /** Worker heap: a base plus this much per unit of scale factor and node (SF 1 is about 1.2 GB in memory). */
    private static final long BASE_HEAP_MIB = 512;

    private static final long HEAP_MIB_PER_SCALE_FACTOR = 2560;
    /**
     * The least heap: the generator's text pool (300 MB) and the engine's buffers, plus the node's share of the data
     * (about 1.2 GB per unit of scale factor). SF 0.01 on 2 nodes runs every query with 320 MiB and fails to load
     * with 256 MiB.
     */
    private static final long MINIMUM_BASE_HEAP_MIB = 320;

    private static final long MINIMUM_HEAP_MIB_PER_SCALE_FACTOR = 1280;

    private final Coordinator cluster;
    private final TpchSettings settings;
    private final Duration queryTimeout;
    private final Consumer<String> progress;

    private TpchSession(Coordinator cluster, TpchSettings settings, Duration queryTimeout, Consumer<String> progress) {
        this.cluster = cluster;
        this.settings = settings;
        this.queryTimeout = queryTimeout;
        this.progress = progress;
    }

    /**
     * Starts a local cluster with {@code config} and loads the database; {@code progress} hears what happens (one
     * line every few seconds while the data is generated).
     */
    public static TpchSession start(ClusterConfig config, TpchSettings settings, Consumer<String> progress) {
        return start(ClusterStart.local(config), settings, progress);
    }

    /**
     * Starts the cluster {@code start} describes (a local one, or a coordinator waiting for workers started on other
     * hosts, reporting them to {@code progress} as they join) and loads the database.
     */
    public static TpchSession start(ClusterStart start, TpchSettings settings, Consumer<String> progress) {
        Objects.requireNonNull(progress, "progress is null");
        ClusterConfig config = start.config();
        if (!start.isJoining()) {
            progress.accept("starting " + config.nodes() + " worker JVM" + (config.nodes() == 1 ? "" : "s") + " ("
                    + config.provider() + " fabric, heap " + config.workerHeap() + " each)");
            Duration loadTimeout = loadTimeout(settings);
            if (config.joinTimeout().compareTo(loadTimeout) < 0) {
                // a replacement worker must join AND reload its share before the next query may run
                start = start.withConfig(config.withJoinTimeout(loadTimeout));
            }
        }
        return load(start.start(progress), settings, progress);
    }

    /** How long generating a node's share may take. */
    static Duration loadTimeout(TpchSettings settings) {
        return Duration.ofMinutes(1)
                .plus(Duration.ofMillis((long) (LOAD_TIME_PER_SCALE_FACTOR.toMillis() * settings.scaleFactor())));
    }

    /**
     * TPC-H on the workers of {@code cluster}, e.g. a {@link Coordinator#listen} coordinator with workers started by
     * hand on several hosts: waits for them, has every node generate its share, and owns {@code cluster} from then on
     * (closing the session closes it, and so does a failed load).
     */
    public static TpchSession load(Coordinator cluster, TpchSettings settings, Consumer<String> progress) {
        Objects.requireNonNull(progress, "progress is null");
        try {
            cluster.awaitWorkers(cluster.config().joinTimeout());
            progress.accept(String.format(
                    "generating TPC-H SF %s, %s placement, on every node",
                    scaleText(settings.scaleFactor()), settings.placement().optionName()));
            long start = System.nanoTime();
            ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("tpch-load-progress").factory());
            ticker.scheduleAtFixedRate(
                    () -> progress.accept(String.format(
                            "  ... still generating (%d s)",
                            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start))),
                    5,
                    5,
                    TimeUnit.SECONDS);
            List<TaskReply> replies;
            try {
                replies = cluster.addSetupTask(
                        TpchLoadHandler.TYPE, node -> TpchLoadTask.of(settings).toJson(), loadTimeout(settings));
            } finally {
                ticker.shutdownNow();
            }
            long rows = 0;
            for (TaskReply reply : replies) {
                for (JsonNode count : reply.result().path("rows")) {
                    rows += count.asLong();
                }
            }
            progress.accept(String.format(
                    "loaded %,d rows over %d nodes in %.1f s",
                    rows, cluster.nodes(), (System.nanoTime() - start) / 1e9));
            Duration queryTimeout =
                    Duration.ofMinutes(2).plus(Duration.ofMinutes((long) Math.ceil(5 * settings.scaleFactor())));
            return new TpchSession(cluster, settings, queryTimeout, progress);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** The heap each of {@code nodes} workers gets by default for its share of SF {@code scaleFactor}, in MiB. */
    public static long workerHeapMiB(int nodes, double scaleFactor) {
        return BASE_HEAP_MIB + (long) Math.ceil(HEAP_MIB_PER_SCALE_FACTOR * scaleFactor / nodes);
    }

    /**
     * The least heap, in MiB, with which each of {@code nodes} workers can load its share of SF {@code scaleFactor}
     * and run queries: the generator's text pool and the engine's buffers, plus its share of the data. Below it a
     * worker runs out of memory.
     */
    public static long minimumWorkerHeapMiB(int nodes, double scaleFactor) {
        return MINIMUM_BASE_HEAP_MIB + (long) Math.ceil(MINIMUM_HEAP_MIB_PER_SCALE_FACTOR * scaleFactor / nodes);
    }

    public TpchSettings settings() {
        return settings;
    }

    public int nodes() {
        return cluster.nodes();
    }

    /** The workers' process ids by node index (for diagnostics and failure tests). */
    public List<Long> workerPids() {
        return cluster.workerPids();
    }

    /**
     * What the plans of a query run with {@code overrides}' transport and threads adapt to: the database's placement,
     * and the exchanges' parallel units for the broadcast rule (the nodes for a decoupled exchange and every transport
     * whose destinations are nodes; every thread of every node for the classic exchange).
     */
    public Distribution distribution(TpchSettings overrides) {
        int unitsPerNode = ExchangeTransports.unitsPerNode(overrides.transport(), overrides.threads());
        return new Distribution(settings.placement(), (long) cluster.nodes() * unitsPerNode);
    }

    /** Runs TPC-H query {@code number} over the session's transport. */
    public QueryOutcome run(int number) {
        return run(number, settings);
    }

    /**
     * Runs TPC-H query {@code number} with {@code overrides}' transport and threads (same database). When a
     * worker that joined from another host is lost during the query, says so to the progress consumer and runs the
     * query once more: that waits up to the join timeout for a new worker to join in its place (and load its share),
     * and otherwise fails with a {@link ClusterException} naming the lost worker.
     */
    public QueryOutcome run(int number, TpchSettings overrides) {
        try {
            return runOnce(number, overrides);
        } catch (ClusterException e) {
            if (cluster.launchesWorkers()
                    || e.kind() != ClusterException.Kind.WORKER_DIED
                            && e.kind() != ClusterException.Kind.WORKER_UNRESPONSIVE) {
                throw e; // a local cluster has already started a replacement; the caller decides
            }
            // a worker on another host: only a worker started there can take its place
            progress.accept("Q" + number + " failed: " + e.getMessage() + "; the coordinator cannot start a worker"
                    + " on another host: waiting up to "
                    + cluster.config().replaceTimeout().toSeconds() + " s for one"
                    + " to join in its place, then running Q" + number + " again");
            return runOnce(number, overrides);
        }
    }

    private QueryOutcome runOnce(int number, TpchSettings overrides) {
        String queryId = "tpch-q" + number + "-" + QUERY_IDS.incrementAndGet();
        JsonNode payload = new QueryTask(
                        queryId,
                        TpchQueries.plan(number, distribution(overrides)),
                        overrides.transport(),
                        overrides.threads())
                .toJson();
        long start = System.nanoTime();
        List<TaskReply> replies = cluster.runOnAll(QueryHandler.TYPE, payload, queryTimeout);
        long elapsed = System.nanoTime() - start;
        JsonNode answer = replies.getFirst().result();
        long shuffled = 0;
        long receivedPerNode = 0;
        for (TaskReply reply : replies) {
            shuffled += reply.result().path("bytesSent").asLong();
            receivedPerNode = Math.max(
                    receivedPerNode, reply.result().path("bytesReceived").asLong());
        }
        return new QueryOutcome(
                number,
                ResultCodec.columnNames(answer.get("columns")),
                ResultCodec.decodeRows(answer.get("columns"), answer.get("rows")),
                elapsed,
                shuffled,
                receivedPerNode);
    }

    static String scaleText(double scaleFactor) {
        return scaleFactor == Math.rint(scaleFactor) ? String.valueOf((long) scaleFactor) : String.valueOf(scaleFactor);
    }

    @Override
    public void close() {
        cluster.close();
    }
}
