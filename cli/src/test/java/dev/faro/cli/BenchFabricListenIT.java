package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.protocol.ClusterSecret;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench fabric --quick --provider net --listen 127.0.0.1:0 --workers 2} with two {@code faro worker
 * --join} processes on this host, as the README's "Several hosts" describes for several: the workers join once the
 * coordinator says where it listens, node 0 (the initiator) and node 1 (the target) measure every operation over the
 * {@code net} fabric between them, the output names the host memcpy ran on, the CSV is written, the run exits 0 and so
 * do the workers it shuts down.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class BenchFabricListenIT {

    @TempDir
    Path directory;

    @Test
    void quickRunOnTwoJoinedWorkersOverNet() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        ClusterSecret.generate().writeFile(secretFile);
        Path results = directory.resolve("results");
        File table = directory.resolve("table.txt").toFile();
        List<FaroProcess> workers = new ArrayList<>();
        try (FaroProcess coordinator = FaroProcess.start(
                table,
                "bench",
                "fabric",
                "--quick",
                "--provider",
                "net",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--secret-file",
                secretFile.toString(),
                "--out",
                results.toString())) {
            FaroProcess.joinWorkers(coordinator, 2, secretFile, directory, workers);
            int exit = coordinator.exit(420);
            List<String> stderr = coordinator.stderr();
            assertThat(exit)
                    .as("faro bench fabric's exit code; it printed %s", stderr)
                    .isZero();
            assertThat(stderr)
                    .anyMatch(line -> line.startsWith("waiting for workers: 2 of 2 joined"))
                    .anyMatch(line -> line.startsWith("workers that joined: node 0 (initiator, pid ")
                            && line.contains("memcpy is measured on the initiator's host"))
                    .anyMatch(line -> line.startsWith("socket stream baseline: over loopback on "))
                    .noneMatch(line -> line.contains("\tat ") || line.contains("Exception"));
            List<String> csv = Files.readAllLines(results.resolve("fabric-net.csv"));
            assertThat(csv).hasSizeGreaterThan(1);
            assertThat(Files.readString(results.resolve("fabric-net.json")))
                    .contains("2 workers that joined (--listen)")
                    .contains("memcpyHost");
            assertThat(Files.readString(table.toPath()))
                    .contains("provider net:")
                    .contains("wrote " + results.resolve("fabric-net.csv"));
            for (FaroProcess worker : workers) {
                assertThat(worker.exit(60))
                        .as("a worker's exit code; it printed %s", worker.stderr())
                        .isZero();
            }
        } finally {
            for (FaroProcess worker : workers) {
                worker.close();
            }
        }
    }
}
