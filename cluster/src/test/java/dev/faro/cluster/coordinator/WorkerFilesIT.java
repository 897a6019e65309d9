package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files of local workers' {@code shm} fabrics: a SIGKILLed worker's node directory is removed by the coordinator
 * as soon as it notices the death (not at the next run), a worker sent SIGTERM removes its own directory and exits,
 * and closing the cluster leaves the shm directory empty. Polls with generous deadlines; durations are never asserted.
 */
class WorkerFilesIT {

    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** Where the pid of a node directory's owner is, in its {@code node} file (see the shm NodeDescriptor). */
    private static final int NODE_FILE_PID_OFFSET = 16;

    @TempDir
    Path shmDirectory;

    private ClusterConfig config(int nodes) {
        return ClusterConfig.local(nodes)
                .withWorkerHeap("256m")
                .withProviderOption("shm.directory", shmDirectory.toString());
    }

    @Test
    void aKilledWorkersDirectoryIsRemovedWhileTheClusterRuns() throws Exception {
        try (Coordinator cluster = LocalCluster.start(config(2))) {
            long victim = cluster.workerPids().get(0);
            Path directory = directoryOf(victim);
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();

            awaitGone(directory);
            assertThat(directoryOf(cluster.workerPids().get(1))).exists();
        }
        assertThat(nodeDirectories()).isEmpty();
    }

    @Test
    void aWorkerSentSigtermRemovesItsDirectoryAndExits() throws Exception {
        try (Coordinator cluster = LocalCluster.start(config(1))) {
            long pid = cluster.workerPids().get(0);
            Path directory = directoryOf(pid);
            ProcessHandle worker = ProcessHandle.of(pid).orElseThrow();
            worker.destroy(); // SIGTERM
            worker.onExit().get(60, TimeUnit.SECONDS);
            awaitGone(directory);
        }
        assertThat(nodeDirectories()).isEmpty();
    }

    private void awaitGone(Path directory) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (Files.exists(directory) && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        assertThat(directory).as("the dead worker's shm directory").doesNotExist();
    }

    /** The node directory whose owner is {@code pid}; waits for it to appear. */
    private Path directoryOf(long pid) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + PATIENCE_NANOS;
        while (System.nanoTime() - deadline < 0) {
            for (Path directory : nodeDirectories()) {
                try {
                    ByteBuffer node = ByteBuffer.wrap(Files.readAllBytes(directory.resolve("node")))
                            .order(ByteOrder.nativeOrder());
                    if (node.capacity() >= NODE_FILE_PID_OFFSET + 8 && node.getLong(NODE_FILE_PID_OFFSET) == pid) {
                        return directory;
                    }
                } catch (IOException e) {
                    // being created or removed
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no shm node directory of pid " + pid + " in " + shmDirectory);
    }

    private List<Path> nodeDirectories() throws IOException {
        try (Stream<Path> paths = Files.list(shmDirectory)) {
            return paths.filter(path -> path.getFileName().toString().startsWith("faro-"))
                    .toList();
        }
    }
}
