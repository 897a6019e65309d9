package dev.faro.bench.baseline;

import dev.faro.bench.shuffle.CaseOutcome;
import dev.faro.bench.shuffle.NodeOutcome;
import dev.faro.bench.shuffle.NodeResult;
import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShuffleTuples;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The MPI baseline of the shuffle experiments (TODS19 §7.1): {@code mpi_shuffle.c}, shipped in this jar, compiled
 * with the system's {@code mpicc} into a cache directory and started with {@code mpirun} on this host at equal cores
 * ({@link #ranksPerNode}: one rank per thread of a node when they fit the cores, else one per node). Repartition uses
 * 64 KB {@code MPI_Isend}/{@code MPI_Irecv}, broadcast {@code MPI_Ibcast}; the tuples, the hash and the data volume
 * per node are those of the case it stands in for, so its outcome is checked for exactly-once delivery like a
 * design's.
 *
 * <p>Coordination code. Open MPI is optional: {@link #prepare} says in one line why the baseline is unavailable.
 */
public final class MpiBaseline {

    /** The paper's MPI message size (the same as the MQ designs'). */
    public static final int MESSAGE_BYTES = 64 * 1024;

    static final String SOURCE = "mpi_shuffle.c";

    private final Path executable;
    private final Path mpirun;

    private MpiBaseline(Path executable, Path mpirun) {
        this.executable = executable;
        this.mpirun = mpirun;
    }

    /**
     * Finds {@code mpicc} and {@code mpirun} on the {@code PATH} and compiles the program (once per source version);
     * when Open MPI is missing or the compiler fails, tells {@code note} why in one line and returns empty.
     */
    public static Optional<MpiBaseline> prepare(Consumer<String> note) {
        Optional<Path> mpicc = onPath("mpicc");
        Optional<Path> mpirun = onPath("mpirun");
        if (mpicc.isEmpty() || mpirun.isEmpty()) {
            note.accept("MPI baseline skipped: Open MPI is not installed (no " + (mpicc.isEmpty() ? "mpicc" : "mpirun")
                    + " on the PATH; apt-get install openmpi-bin libopenmpi-dev)");
            return Optional.empty();
        }
        try {
            return Optional.of(new MpiBaseline(compile(mpicc.get()), mpirun.get()));
        } catch (IOException | IllegalStateException e) {
            note.accept("MPI baseline skipped: "
                    + e.getMessage().replaceAll("\\s+", " ").strip());
            return Optional.empty();
        }
    }

    private static Optional<Path> onPath(String program) {
        String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
        for (String directory : path.split(java.io.File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Compiles the shipped source into {@code ~/.cache/faro/mpi-<hash>/} unless it is there already. */
    private static Path compile(Path mpicc) throws IOException {
        byte[] source;
        try (InputStream in = MpiBaseline.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SOURCE + " is missing from the bench jar");
            }
            source = in.readAllBytes();
        }
        Path cache = cacheRoot().resolve("mpi-" + hash(source));
        Path executable = cache.resolve("mpi_shuffle");
        if (Files.isExecutable(executable)) {
            return executable;
        }
        Files.createDirectories(cache);
        Path file = cache.resolve(SOURCE);
        Files.write(file, source);
        Path temporary =
                cache.resolve("mpi_shuffle.tmp" + ProcessHandle.current().pid());
        Result result = execute(
                List.of(mpicc.toString(), "-O2", "-o", temporary.toString(), file.toString()), Duration.ofMinutes(2));
        if (result.exitCode() != 0) {
            throw new IllegalStateException("mpicc failed (exit " + result.exitCode() + "): " + result.output());
        }
        Files.move(
                temporary,
                executable,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return executable;
    }

    private static Path cacheRoot() {
        String home = System.getProperty("user.home");
        Path root = home == null ? null : Path.of(home, ".cache", "faro");
        if (root == null || !(Files.isDirectory(root) || Files.isWritable(Path.of(home)))) {
            root = Path.of(System.getProperty("java.io.tmpdir"), "faro-cache");
        }
        return root;
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))
                    .substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Ranks per node at equal cores: one per thread of a node ({@code -np nodes × threads}) when that many ranks fit
     * the host's {@code cores}, else one per node, which does all its threads' work (more busy-polling ranks than cores
     * would make MPI collapse under its own polling and flatter the designs).
     */
    public static int ranksPerNode(ShuffleCase shuffleCase, int cores) {
        return fitsOneRankPerThread(shuffleCase, cores) ? shuffleCase.threads() : 1;
    }

    /** Whether {@code nodes × threads} ranks fit the host's {@code cores}. */
    private static boolean fitsOneRankPerThread(ShuffleCase shuffleCase, int cores) {
        return (long) shuffleCase.nodes() * shuffleCase.threads() <= cores;
    }

    /** What the MPI rows of {@code shuffleCase} ran on this host, for the tables: ranks, per node, and why. */
    public static String configuration(ShuffleCase shuffleCase) {
        int cores = Runtime.getRuntime().availableProcessors();
        int perNode = ranksPerNode(shuffleCase, cores);
        int ranks = shuffleCase.nodes() * perNode;
        int tablesPerRank = shuffleCase.threads() / perNode;
        String work = tablesPerRank == 1 ? "1 thread's table" : tablesPerRank + " threads' tables";
        return String.format(
                java.util.Locale.ROOT,
                "-np %d: %d rank%s per node, each shuffling %s, on %d cores (%s)",
                ranks,
                perNode,
                perNode == 1 ? "" : "s",
                work,
                cores,
                fitsOneRankPerThread(shuffleCase, cores)
                        ? "one rank per thread of a node"
                        : shuffleCase.threads() > 1
                                ? "nodes x threads = " + shuffleCase.nodes() * shuffleCase.threads()
                                        + " ranks would exceed the cores"
                                : "more ranks than cores, but one per node is the fewest");
    }

    /**
     * The command that runs {@code shuffleCase} at equal cores ({@link #ranksPerNode}); rank w plays thread lane w % R
     * of node w / R, R ranks per node (see mpi_shuffle.c).
     */
    List<String> command(ShuffleCase shuffleCase) {
        int perNode = ranksPerNode(shuffleCase, Runtime.getRuntime().availableProcessors());
        List<String> command = new ArrayList<>(List.of(mpirun.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of(
                "--oversubscribe",
                "--bind-to",
                "none",
                "--mca",
                "btl",
                "self,vader",
                "-np",
                Integer.toString(shuffleCase.nodes() * perNode),
                executable.toString(),
                pattern(shuffleCase),
                Integer.toString(shuffleCase.threads()),
                Integer.toString(shuffleCase.tuplesPerThread()),
                Integer.toString(shuffleCase.scans()),
                Integer.toString(MESSAGE_BYTES),
                Integer.toString(shuffleCase.tuning().receiveWork()),
                Integer.toString(perNode)));
        return command;
    }

    private static String pattern(ShuffleCase shuffleCase) {
        return switch (shuffleCase.pattern()) {
            case "repartition", "broadcast" -> shuffleCase.pattern();
            default ->
                throw new IllegalArgumentException(
                        "the MPI baseline does repartition and broadcast, not " + shuffleCase.pattern());
        };
    }

    /**
     * Runs the program for {@code shuffleCase} (its pattern, node count, threads' rows and scans; every node sends)
     * and returns the outcome, checked against what every node must receive like a design's.
     */
    public CaseOutcome run(ShuffleCase shuffleCase, ShuffleTuples.Expected expected, Duration deadline) {
        List<NodeOutcome> nodes = new ArrayList<>();
        Result result;
        try {
            result = execute(command(shuffleCase), deadline);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start mpirun: " + e.getMessage(), e);
        }
        long now = System.nanoTime();
        NodeResult[] parsed = new NodeResult[shuffleCase.nodes()];
        for (String line : result.output().split("\n")) {
            String[] words = line.strip().split("\\s+");
            if (words.length == 6 && words[0].equals("NODE")) {
                int node = Integer.parseInt(words[1]);
                if (node >= 0 && node < parsed.length) {
                    parsed[node] = new NodeResult(
                            Long.parseUnsignedLong(words[2]),
                            Long.parseLong(words[3]),
                            0,
                            Long.parseUnsignedLong(words[4]),
                            Long.parseUnsignedLong(words[5]),
                            0);
                }
            }
        }
        for (int node = 0; node < parsed.length; node++) {
            if (parsed[node] != null && result.exitCode() == 0) {
                nodes.add(new NodeOutcome.Finished(parsed[node], now));
            } else {
                String output = result.output().replaceAll("\\s+", " ").strip();
                nodes.add(new NodeOutcome.Failed(
                        "MPI",
                        "mpirun exit " + result.exitCode() + ": " + output.substring(0, Math.min(300, output.length())),
                        now));
            }
        }
        return new CaseOutcome(shuffleCase, expected, nodes);
    }

    private record Result(int exitCode, String output) {}

    /** Runs {@code command}, output and errors together; kills it (exit -1) past {@code deadline}. */
    private static Result execute(List<String> command, Duration deadline) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (InputStream in = process.getInputStream()) {
                output.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the process went away; what was read is kept
            }
        });
        try {
            if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                reader.join(Duration.ofSeconds(5));
                return new Result(-1, "timed out after " + deadline + "; " + output);
            }
            reader.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
        return new Result(process.exitValue(), output.toString());
    }
}
