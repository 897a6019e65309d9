package dev.faro.bench.shuffle;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.cluster.coordinator.Coordinator;
import dev.faro.cluster.coordinator.LocalCluster;
import dev.faro.cluster.coordinator.NodeAnswer;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs {@link ShuffleCase}s on a cluster ({@code dev.faro.cluster}): a coordinator in this process and a fixed number
 * of workers, one fabric node each, kept across cases: a local cluster of worker JVMs over {@code shm} ({@link
 * #start(int, Consumer)}), or workers that joined from elsewhere over {@code net} or {@code ucx} ({@link
 * #start(ClusterStart, Consumer)}; a lost one is replaced only by a new {@code faro worker --join} within the join
 * timeout, otherwise the case fails naming it). A case over {@code k} nodes is one
 * round on the first {@code k} workers ({@link ShuffleCaseHandler} tasks, {@link RunningCase}); the runner computes
 * what each must receive. The cluster relays the exchanges of the open, enforces the case's deadline, and replaces a
 * worker that died or did not end a cancelled case, before the next case; the timed part of a case never touches the
 * coordinator.
 *
 * <p>Local workers share a directory of their own under {@code /dev/shm}; {@link #close()} ends them and checks that
 * they left nothing in it. Joined workers have no shared directory and nothing is checked there.
 *
 * <p>Coordination code. Not thread-safe: one thread launches cases and closes the runner.
 */
public final class ShuffleRunner implements AutoCloseable {

    /** The workers' heap: tuples and buffers live off-heap. */
    static final String WORKER_MAX_HEAP = "128m";

    /** Serial GC: no GC threads competing with the shuffle's threads on small machines; no perf-data files. */
    static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");

    /** How long one exchange of a case may wait for the other nodes. */
    static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How long a cancelled case may run on before its worker is replaced: longer than the default stall timeout and
     * a case's stop grace, so that the survivors of a peer's death end their case by themselves and report what they
     * saw.
     */
    static final Duration CANCEL_GRACE = ShuffleCase.DEFAULT_STALL_TIMEOUT.plusSeconds(10);

    /** Heartbeats: generous, because the shuffle threads keep every core busy. */
    private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(1);

    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);

    /** How long waiting for every worker's previous case may take. */
    private static final Duration IDLE_TIMEOUT = ShuffleCaseHandler.PREVIOUS_CASE_WAIT.plusSeconds(15);

    private final Coordinator cluster;
    /** The local workers' shared-memory directory; null for joined workers. */
    private final Path directory;

    private final String provider;
    private final Consumer<String> log;
    private final Map<String, RunningCase> startedKeys = new ConcurrentHashMap<>();
    /** What receivers must get, for the last few kinds of case (a benchmark repeats the same data). */
    private final Map<String, ShuffleTuples.Expected> expectedCache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ShuffleTuples.Expected> eldest) {
            return size() > 8;
        }
    };

    private final List<Long> knownPids;
    /** Set when joined workers lost one for good: no round can run any more, not even the idle one at close. */
    private boolean unavailable;

    private int nextCaseId;
    private int restarts;
    private boolean closed;

    private ShuffleRunner(Coordinator cluster, Path directory, String provider, Consumer<String> log) {
        this.cluster = cluster;
        this.directory = directory;
        this.provider = provider;
        this.log = log;
        this.knownPids = new ArrayList<>(cluster.workerPids());
        cluster.addExchangeListener((taskId, key, values) -> {
            RunningCase running = startedKeys.remove(key);
            if (running != null) {
                running.onStarted(values);
            }
        });
    }

    /**
     * Starts {@code size} workers in a new directory under {@code /dev/shm} (or the temporary directory where there
     * is none). The cluster's own lines and the workers' standard error go to standard error; {@code log} gets the
     * runner's.
     *
     * @throws dev.faro.cluster.ClusterException if the workers cannot be started or do not join
     */
    public static ShuffleRunner start(int size, Consumer<String> log) {
        return start(size, CANCEL_GRACE, log);
    }

    /**
     * As {@link #start(int, Consumer)}, with the given cancel grace instead of {@link #CANCEL_GRACE}: a test of the
     * replacement of workers that ignore a cancel need not wait for survivors that would stop by themselves.
     */
    static ShuffleRunner start(int size, Duration cancelGrace, Consumer<String> log) {
        Objects.requireNonNull(log, "log is null");
        if (size < 1) {
            throw new IllegalArgumentException("a cluster needs at least one worker: " + size);
        }
        Path base = Path.of("/dev/shm");
        if (!Files.isDirectory(base) || !Files.isWritable(base)) {
            base = Path.of(System.getProperty("java.io.tmpdir"));
        }
        Path directory;
        try {
            // not "faro-*": a fabric node sweeps directories of that name it cannot read
            directory = Files.createTempDirectory(base, "shuffle-cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a shared-memory directory in " + base + ": " + e, e);
        }
        ClusterConfig config = timing(ClusterConfig.local(size)
                        .withWorkerHeap(WORKER_MAX_HEAP)
                        .withJvmOptions(WORKER_JVM_OPTIONS)
                        .withProviderOption("shm.directory", directory.toString()))
                .withCancelGrace(cancelGrace);
        try {
            return new ShuffleRunner(LocalCluster.start(config), directory, config.provider(), log);
        } catch (RuntimeException e) {
            deleteQuietly(directory, log);
            throw e;
        }
    }

    /**
     * Listens for the workers {@code joined} describes (started elsewhere with {@code faro worker --join}) and waits
     * until they have all joined; {@code log} gets the listening and joining lines and the runner's.
     *
     * @throws IllegalArgumentException if {@code joined} is a local start
     * @throws dev.faro.cluster.ClusterException if the workers do not all join within the join timeout
     */
    public static ShuffleRunner start(ClusterStart joined, Consumer<String> log) {
        Objects.requireNonNull(log, "log is null");
        if (!joined.isJoining()) {
            throw new IllegalArgumentException("not a cluster of joining workers: " + joined.config());
        }
        ClusterStart start = joined.withConfig(timing(joined.config()));
        return new ShuffleRunner(start.start(log), null, start.config().provider(), log);
    }

    /** The runner's timing: heartbeats, the fabric's peer timeout, a cancelled case's grace, the exchange timeout. */
    private static ClusterConfig timing(ClusterConfig config) {
        return config.withFabricPeerTimeout(FabricConfig.DEFAULT_PEER_TIMEOUT)
                .withHeartbeat(HEARTBEAT_INTERVAL, HEARTBEAT_TIMEOUT)
                .withCancelGrace(CANCEL_GRACE)
                .withExchangeTimeout(EXCHANGE_TIMEOUT);
    }

    /** Workers in the cluster. */
    public int size() {
        return cluster.nodes();
    }

    /** The directory the local workers' fabric nodes share; null for joined workers. */
    public Path directory() {
        return directory;
    }

    /** The workers' fabric provider ({@code shm} for a local cluster). */
    public String provider() {
        return provider;
    }

    /** How many workers were replaced since the start (as seen between cases). */
    public int restarts() {
        noteReplacements();
        return restarts;
    }

    /**
     * Runs {@code shuffleCase} to the end with {@link #defaultDeadline}.
     *
     * @throws ClusterException {@code NODE_UNAVAILABLE} when joined workers lost one and no new one joined within the
     *     join timeout: nothing more can run, and the message names the lost worker
     */
    public CaseOutcome run(ShuffleCase shuffleCase) throws InterruptedException {
        RunningCase running = launch(shuffleCase, defaultDeadline(shuffleCase));
        CaseOutcome outcome = running.await();
        if (directory == null
                && running.answers().state() == Future.State.FAILED
                && running.answers().exceptionNow() instanceof ClusterException failure
                && failure.kind() == ClusterException.Kind.NODE_UNAVAILABLE) {
            unavailable = true;
            throw failure;
        }
        return outcome;
    }

    /**
     * A generous bound for a case: a minute, plus twice the stall timeout (a failing case may legitimately wait that
     * long), plus a second per five million tuples the nodes send.
     */
    public static Duration defaultDeadline(ShuffleCase shuffleCase) {
        long tuples = 0;
        for (int node = 0; node < shuffleCase.nodes(); node++) {
            tuples += shuffleCase.tuplesSentBy(node);
        }
        return Duration.ofSeconds(60)
                .plus(shuffleCase.stallTimeout().multipliedBy(2))
                .plusSeconds(tuples / 5_000_000);
    }

    /**
     * Starts {@code shuffleCase} on the first {@code nodes} workers (once the cluster has every worker ready and
     * idle, replacements included) and returns at once.
     */
    public RunningCase launch(ShuffleCase shuffleCase, Duration deadline) {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
        int nodes = shuffleCase.nodes();
        if (nodes > size()) {
            throw new IllegalArgumentException(
                    shuffleCase.label() + " needs " + nodes + " workers; the cluster has " + size());
        }
        noteReplacements();
        ShuffleTuples.Expected expected =
                expectedCache.computeIfAbsent(shuffleCase.dataKey(), key -> ShuffleTuples.expected(shuffleCase));
        RunningCase running = new RunningCase(shuffleCase, expected, nextCaseId++);
        String startedKey = NodeShuffle.startedKey(running.caseId());
        startedKeys.put(startedKey, running);
        var payload = ShuffleCaseHandler.payload(running.caseId(), shuffleCase, directory);
        Thread.ofPlatform().daemon().name("shuffle-case-" + running.caseId()).start(() -> {
            try {
                running.answers()
                        .complete(cluster.runOnEach(nodes, ShuffleCaseHandler.TYPE, node -> payload, deadline));
            } catch (RuntimeException e) {
                running.answers().completeExceptionally(e);
            } finally {
                startedKeys.remove(startedKey);
            }
        });
        return running;
    }

    /**
     * Kills worker {@code node} with SIGKILL (no shutdown hooks, no cleanup: a crash), for failure tests. The cluster
     * replaces it.
     */
    public void kill(int node) {
        long pid = cluster.workerPids().get(node);
        if (pid > 0) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * Waits until every worker has ended its last case (endpoints closed, so its files are gone), replacements
     * included. Returns the workers that are idle now.
     */
    public List<Integer> awaitIdle() {
        List<Integer> idle = new ArrayList<>();
        for (NodeAnswer answer : cluster.runOnEach(
                size(), ShuffleCaseHandler.TYPE, node -> ShuffleCaseHandler.idlePayload(), IDLE_TIMEOUT)) {
            if (answer.succeeded()) {
                idle.add(answer.node());
            } else {
                log.accept("node " + answer.node() + " is not idle: "
                        + answer.failure().getMessage());
            }
        }
        return idle;
    }

    /** Every file and directory under the cluster's directory, deepest first. */
    public List<Path> sharedFiles() {
        return sharedFiles(directory);
    }

    private static List<Path> sharedFiles(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> !file.equals(directory))
                    .sorted(Comparator.reverseOrder())
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + ": " + e, e);
        }
    }

    /** Counts workers whose pid changed since the last look (a replacement joined). */
    private void noteReplacements() {
        List<Long> pids = cluster.workerPids();
        for (int node = 0; node < pids.size(); node++) {
            long pid = pids.get(node);
            if (pid > 0) {
                if (knownPids.get(node) > 0 && knownPids.get(node) != pid) {
                    restarts++;
                }
                knownPids.set(node, pid);
            }
        }
    }

    /**
     * Lets every worker end its last case, shuts the cluster down, then checks the shared directory: every worker's
     * fabric removes its own files, and the survivors of a crash remove the dead node's. The directory is deleted
     * either way.
     *
     * @throws FaroException {@code IO} naming the files left behind, if any
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!unavailable) {
                awaitIdle();
            }
        } catch (RuntimeException e) {
            log.accept("the workers did not all become idle before the shutdown: " + e.getMessage());
        }
        noteReplacements();
        cluster.close();
        List<Path> left = sharedFiles();
        deleteQuietly(directory, log);
        if (!left.isEmpty()) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "the workers left " + left.size()
                            + " shared-memory files behind in " + directory + " (deleted now): "
                            + left.stream()
                                    .map(file -> directory.relativize(file).toString())
                                    .sorted()
                                    .toList());
        }
    }

    private static void deleteQuietly(Path directory, Consumer<String> log) {
        if (directory == null) {
            return;
        }
        for (Path file : sharedFiles(directory)) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                log.accept("cannot delete " + file + ": " + e);
            }
        }
        try {
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            log.accept("cannot delete " + directory + ": " + e);
        }
    }
}
