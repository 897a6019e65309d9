package dev.faro.bench.shuffle;

import dev.faro.bench.process.WorkerFailedException;
import dev.faro.bench.process.WorkerProcess;
import dev.faro.bench.process.WorkerSpec;
import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The coordinator of the multi-process shuffle harness: a fixed number of {@link ShuffleWorker} JVMs, one
 * {@code shm} fabric node each, kept alive across cases. A case over {@code k} nodes runs on the first {@code k}
 * workers; the cluster computes what each must receive, relays their exchanges ({@link RunningCase}) and enforces a
 * deadline. A worker that died, stopped answering or did not finish in time is replaced before the next case, so
 * one broken case never poisons the next.
 *
 * <p>The workers share a directory of their own under {@code /dev/shm}; {@link #close()} ends them and checks that
 * they left nothing in it.
 *
 * <p>Coordination code. Not thread-safe: one thread launches cases and closes the cluster; while a case runs, its
 * drivers own the workers.
 */
public final class ShuffleCluster implements AutoCloseable {

    /** The workers' heap: tuples and buffers live off-heap. */
    static final String WORKER_MAX_HEAP = "128m";

    /** Serial GC: no GC threads competing with the shuffle's threads on small machines; no perf-data files. */
    static final List<String> WORKER_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:-UsePerfData");

    /** How long a starting worker may take to open its fabric node, and a worker may take to become idle. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration IDLE_WAIT = Duration.ofSeconds(45);

    private final Path directory;
    /** A fresh secret per cluster, for the TCP baseline's handshakes; it reaches workers over their standard input. */
    private final String secret;
    private final Consumer<String> log;
    private final WorkerProcess[] workers;
    private final String[] fabricNodes;
    private final boolean[] broken;
    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "shuffle-cluster-driver");
        thread.setDaemon(true);
        return thread;
    });
    /** What receivers must get, for the last few kinds of case (a benchmark repeats the same data). */
    private final Map<String, ShuffleTuples.Expected> expectedCache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ShuffleTuples.Expected> eldest) {
            return size() > 8;
        }
    };
    private int nextCaseId;
    private int restarts;
    private boolean closed;

    private ShuffleCluster(int size, Path directory, Consumer<String> log) {
        this.directory = directory;
        byte[] secretBytes = new byte[32];
        new SecureRandom().nextBytes(secretBytes);
        this.secret = HexFormat.of().formatHex(secretBytes);
        this.log = log;
        this.workers = new WorkerProcess[size];
        this.fabricNodes = new String[size];
        this.broken = new boolean[size];
    }

    /**
     * Starts {@code size} workers in a new directory under {@code /dev/shm} (or the temporary directory where there
     * is none). Lines the workers write to standard error go to {@code log}.
     *
     * @throws WorkerFailedException if a worker cannot be started or cannot open its fabric node
     */
    public static ShuffleCluster start(int size, Consumer<String> log) {
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
        ShuffleCluster cluster = new ShuffleCluster(size, directory, Objects.requireNonNull(log, "log is null"));
        try {
            cluster.replace(allSlots(size));
        } catch (RuntimeException e) {
            try {
                cluster.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return cluster;
    }

    private static List<Integer> allSlots(int size) {
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            slots.add(i);
        }
        return slots;
    }

    /** Workers in the cluster. */
    public int size() {
        return workers.length;
    }

    /** The directory the workers' fabric nodes share. */
    public Path directory() {
        return directory;
    }

    /** How many workers were replaced since the start. */
    public int restarts() {
        return restarts;
    }

    /** Worker {@code node}'s fabric node id (16 hex digits); its files live in {@code faro-<id>}. */
    public String fabricNode(int node) {
        return fabricNodes[node];
    }

    /** Runs {@code shuffleCase} to the end with {@link #defaultDeadline}. */
    public CaseOutcome run(ShuffleCase shuffleCase) throws InterruptedException {
        return launch(shuffleCase, defaultDeadline(shuffleCase)).await();
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
        return Duration.ofSeconds(60).plus(shuffleCase.stallTimeout().multipliedBy(2))
                .plusSeconds(tuples / 5_000_000);
    }

    /**
     * Starts {@code shuffleCase} on the first {@code nodes} workers after making sure they are alive and idle
     * (replacing those that are not), and returns at once.
     */
    public RunningCase launch(ShuffleCase shuffleCase, Duration deadline) {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
        int nodes = shuffleCase.nodes();
        if (nodes > workers.length) {
            throw new IllegalArgumentException(shuffleCase.label() + " needs " + nodes + " workers; the cluster has "
                    + workers.length);
        }
        prepare(nodes);
        ShuffleTuples.Expected expected = expectedCache.computeIfAbsent(shuffleCase.dataKey(),
                key -> ShuffleTuples.expected(shuffleCase));
        RunningCase running = new RunningCase(shuffleCase, expected, nextCaseId++, deadline, this::markBroken);
        running.start(List.of(workers).subList(0, nodes), executor);
        return running;
    }

    /**
     * Kills worker {@code node} with SIGKILL (no shutdown hooks, no cleanup: a crash), for failure tests. It is
     * replaced before the next case.
     */
    public void kill(int node) {
        WorkerProcess worker = workers[node];
        ProcessHandle.of(worker.pid()).ifPresent(ProcessHandle::destroyForcibly);
        broken[node] = true;
    }

    /**
     * Waits until every live worker has ended its last case (endpoints closed, so its files are gone); a worker that
     * does not is marked for replacement. Returns the workers that are idle now.
     */
    public List<Integer> awaitIdle() {
        List<Integer> candidates = new ArrayList<>();
        for (int node = 0; node < workers.length; node++) {
            if (workers[node] != null && !isBroken(node) && workers[node].isAlive()) {
                candidates.add(node);
            }
        }
        List<Future<Boolean>> answers = new ArrayList<>();
        for (int node : candidates) {
            answers.add(executor.submit(() -> idle(workers[node])));
        }
        List<Integer> idle = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            if (get(answers.get(i))) {
                idle.add(candidates.get(i));
            } else {
                markBroken(candidates.get(i));
            }
        }
        return idle;
    }

    private boolean idle(WorkerProcess worker) {
        try {
            worker.request(ShuffleWorker.IDLE + " " + IDLE_WAIT.toMillis(), IDLE_WAIT.plusSeconds(15));
            return true;
        } catch (WorkerFailedException e) {
            log.accept(worker.name() + " is not idle: " + e.getMessage());
            return false;
        }
    }

    /** Every file and directory under the cluster's directory, deepest first. */
    public List<Path> sharedFiles() {
        if (!Files.exists(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(file -> !file.equals(directory)).sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + ": " + e, e);
        }
    }

    private void markBroken(int node) {
        synchronized (broken) {
            broken[node] = true;
        }
    }

    private boolean isBroken(int node) {
        synchronized (broken) {
            return broken[node];
        }
    }

    /** Makes workers {@code 0 .. nodes-1} alive and idle: waits for their previous case, replaces the broken. */
    private void prepare(int nodes) {
        List<Integer> replace = new ArrayList<>();
        List<Future<Boolean>> idle = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            WorkerProcess worker = workers[node];
            if (worker == null || isBroken(node) || !worker.isAlive()) {
                idle.add(null);
            } else {
                idle.add(executor.submit(() -> idle(worker)));
            }
        }
        for (int node = 0; node < nodes; node++) {
            if (idle.get(node) == null || !get(idle.get(node))) {
                replace.add(node);
            }
        }
        if (!replace.isEmpty()) {
            replace(replace);
            restarts += replace.size();
        }
    }

    /** Ends the given workers (if any) and starts new ones in parallel, each with its fabric node open. */
    private void replace(List<Integer> slots) {
        List<Future<?>> closing = new ArrayList<>();
        for (int slot : slots) {
            WorkerProcess old = workers[slot];
            if (old != null) {
                closing.add(executor.submit(old::close));
            }
        }
        closing.forEach(ShuffleCluster::get);
        List<Future<?>> opening = new ArrayList<>();
        for (int slot : slots) {
            String name = "shuffle-" + slot;
            WorkerSpec spec = WorkerSpec.of(name, ShuffleWorker.class, name)
                    .withMaxHeap(WORKER_MAX_HEAP)
                    .withJvmOptions(WORKER_JVM_OPTIONS)
                    .withReplyTimeout(START_TIMEOUT);
            WorkerProcess worker = WorkerProcess.start(spec, log);
            workers[slot] = worker;
            markFixed(slot);
            opening.add(executor.submit(() -> {
                String[] reply = worker.request(ShuffleWorker.OPEN + " " + directory + " " + secret, START_TIMEOUT)
                        .split(" ");
                fabricNodes[slot] = reply[0];
            }));
        }
        opening.forEach(ShuffleCluster::get);
    }

    private void markFixed(int node) {
        synchronized (broken) {
            broken[node] = false;
        }
    }

    private static <T> T get(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Ends every worker (after letting a running case finish its cleanup), then checks the shared directory: every
     * worker's fabric removes its own files, and the survivors of a crash remove the dead node's. The directory is
     * deleted either way.
     *
     * @throws FaroException {@code IO} naming the files left behind, if any
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Future<?>> closing = new ArrayList<>();
        for (int slot = 0; slot < workers.length; slot++) {
            WorkerProcess worker = workers[slot];
            if (worker == null) {
                continue;
            }
            boolean wait = !isBroken(slot) && worker.isAlive();
            closing.add(executor.submit(() -> {
                if (wait) {
                    idle(worker);
                }
                worker.close();
            }));
        }
        for (Future<?> future : closing) {
            try {
                get(future);
            } catch (RuntimeException e) {
                log.accept("closing a worker failed: " + e);
            }
        }
        executor.shutdownNow();
        List<Path> left = sharedFiles();
        for (Path file : left) {
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
        if (!left.isEmpty()) {
            throw new FaroException(FaroException.Category.IO, "the workers left " + left.size()
                    + " shared-memory files behind in " + directory + " (deleted now): "
                    + left.stream().map(file -> directory.relativize(file).toString()).sorted().toList());
        }
    }
}
