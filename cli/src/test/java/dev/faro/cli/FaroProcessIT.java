package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code faro tpch} as a real process: SIGTERM while a query runs stops the workers gracefully, leaves no shared
 * memory files and says "stopped by user" (exit 143); standard output on a full device exits 1 with one line; a full
 * shared-memory file system fails the query with one line, not a forwarded stack trace. Deadlines are generous;
 * durations are never asserted.
 */
class FaroProcessIT {

    private Path shmDirectory;

    @BeforeEach
    void privateShmDirectory() throws IOException {
        // under /dev/shm where there is one, but not named faro-*: other fabrics' stale-node sweeps leave it alone
        Path devShm = Path.of("/dev/shm");
        shmDirectory = Files.isDirectory(devShm) && Files.isWritable(devShm)
                ? Files.createTempDirectory(devShm, "stops-it-")
                : Files.createTempDirectory("stops-it-");
    }

    @AfterEach
    void removeShmDirectory() throws IOException {
        try (Stream<Path> paths = Files.walk(shmDirectory)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    @Test
    void sigtermStopsTheWorkersRemovesTheirFilesAndSaysStoppedByUser() throws Exception {
        try (FaroProcess faro = FaroProcess.start(
                new File("/dev/null"),
                "tpch",
                "--nodes",
                "2",
                "--sf",
                "0.05",
                "--queries",
                "all",
                "--worker-heap",
                "400m",
                "--shm-directory",
                shmDirectory.toString())) {
            faro.awaitLine(line -> line.startsWith("running Q"), 300);
            List<ProcessHandle> workers = faro.process().toHandle().children().toList();
            assertThat(workers).hasSize(2);
            assertThat(entries()).isNotEmpty();

            faro.process().toHandle().destroy(); // SIGTERM (Process.destroy would also close its pipes)

            assertThat(faro.exit(120)).isEqualTo(128 + 15);
            List<String> stderr = faro.stderr();
            assertThat(stderr).contains("faro tpch: stopped by user");
            assertThat(stderr)
                    .noneMatch(line -> line.contains("died") || line.contains("\tat ") || line.startsWith("[node"));
            assertThat(entries()).as("files left in " + shmDirectory).isEmpty();
            for (ProcessHandle worker : workers) {
                worker.onExit().get(30, TimeUnit.SECONDS); // ended by the stop, not orphaned
            }
        }
    }

    @Test
    void outputThatCannotBeWrittenExitsOneWithOneLine() throws Exception {
        File devFull = new File("/dev/full");
        Assumptions.assumeTrue(devFull.exists(), "SKIPPED: this host has no /dev/full");
        try (FaroProcess faro = FaroProcess.start(
                devFull,
                "tpch",
                "--nodes",
                "1",
                "--sf",
                "0.01",
                "--queries",
                "4",
                "--worker-heap",
                "400m",
                "--shm-directory",
                shmDirectory.toString())) {
            assertThat(faro.exit(300)).isEqualTo(FaroCommand.OUTPUT_FAILED);
            assertThat(faro.stderr().getLast())
                    .isEqualTo("faro tpch: cannot write the output: No space left on" + " device");
        }
    }

    @Test
    void aFullSharedMemoryFileSystemIsOneLine() throws Exception {
        Path mount = Files.createTempDirectory("stops-tiny-shm-");
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mount.toString())
                .redirectErrorStream(true)
                .start();
        boolean mounted = mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0;
        if (!mounted) {
            Files.deleteIfExists(mount);
            System.err.println("SKIPPED FaroProcessIT.aFullSharedMemoryFileSystemIsOneLine: cannot mount a 2 MiB"
                    + " tmpfs (needs root): "
                    + new String(mounting.getInputStream().readAllBytes()).strip());
            Assumptions.abort("cannot mount a tmpfs");
        }
        // the nodes' own files take about 20 KiB, a query's buffers up to about 1.2 MiB at their peak (their files go
        // as soon as each exchange closes): leave 512 KiB, so the nodes start and the first exchanges run out
        try (var filler = java.nio.channels.FileChannel.open(
                mount.resolve("filler"),
                java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
            filler.write(java.nio.ByteBuffer.allocate(1536 * 1024));
        }
        try (FaroProcess faro = FaroProcess.start(
                new File("/dev/null"),
                "tpch",
                "--nodes",
                "2",
                "--sf",
                "0.01",
                "--queries",
                "3,4,10,3,4,10",
                "--worker-heap",
                "400m",
                "--shm-directory",
                mount.toString())) {
            assertThat(faro.exit(300)).isEqualTo(TpchCommand.FAILED);
            List<String> stderr = faro.stderr();
            assertThat(stderr.getLast())
                    .startsWith("faro tpch: ")
                    .containsAnyOf("ran out of shared memory", "No space left on device");
            assertThat(stderr).noneMatch(line -> line.contains("\tat ") || line.contains("InternalError"));
        } finally {
            Files.deleteIfExists(mount.resolve("filler"));
            new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
            Files.deleteIfExists(mount);
        }
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> paths = Files.list(shmDirectory)) {
            return paths.toList();
        }
    }
}
