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
 * {@code faro bench shuffle e4 --quick --listen 127.0.0.1:0 --workers 2} with two {@code faro worker --join} processes
 * on this host, as the README's "Several hosts" describes for several: the workers join once the coordinator says
 * where it listens, every design and the TCP baseline run over the {@code net} fabric between them, the MPI baseline
 * is skipped with a note, the CSV is written, the run exits 0 and so do the workers it shuts down.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class BenchShuffleListenIT {

    @TempDir
    Path directory;

    @Test
    void e4RunsOnTwoJoinedWorkers() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        ClusterSecret.generate().writeFile(secretFile);
        Path results = directory.resolve("results");
        File table = directory.resolve("table.txt").toFile();
        List<FaroProcess> workers = new ArrayList<>();
        try (FaroProcess coordinator = FaroProcess.start(
                table,
                "bench",
                "shuffle",
                "e4",
                "--quick",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--secret-file",
                secretFile.toString(),
                "--out",
                results.toString())) {
            coordinator.awaitLine(line -> line.startsWith("listening on "), 120);
            String join = coordinator.stderr().stream()
                    .filter(line -> line.startsWith("listening on "))
                    .findFirst()
                    .orElseThrow()
                    .split(" ")[2];
            for (int i = 0; i < 2; i++) {
                workers.add(FaroProcess.start(
                        directory.resolve("worker-" + i + ".out").toFile(),
                        "worker",
                        "--join",
                        join,
                        "--secret-file",
                        secretFile.toString()));
            }
            int exit = coordinator.exit(420);
            List<String> stderr = coordinator.stderr();
            assertThat(exit)
                    .as("faro bench shuffle e4's exit code; it printed %s", stderr)
                    .isZero();
            assertThat(stderr)
                    .anyMatch(line -> line.startsWith("waiting for workers: 2 of 2 joined"))
                    .anyMatch(line -> line.equals("note: the MPI baseline runs its ranks on this host, not on"
                            + " workers that join (--listen)"))
                    .noneMatch(line -> line.contains("\tat ") || line.contains("Exception"));
            List<String> csv = Files.readAllLines(results.resolve("e4.csv"));
            assertThat(csv.get(0)).startsWith("experiment,group,series,contender");
            assertThat(csv.subList(1, csv.size()))
                    .as("every design and TCP measured at 2 nodes, MPI skipped, in both patterns")
                    .hasSize(2 * 10)
                    .allMatch(row -> row.contains(",2,"))
                    .anyMatch(row -> row.startsWith("e4,repartition@2,MESQ/SR,"))
                    .filteredOn(row -> !row.contains(",MPI,"))
                    .allMatch(row -> row.endsWith(","), "succeeded (empty failure column)");
            assertThat(csv)
                    .filteredOn(row -> row.contains(",MPI,"))
                    .hasSize(2)
                    .allMatch(row -> row.contains("skipped: the MPI baseline runs its ranks on this host"));
            assertThat(Files.readString(results.resolve("e4.json"))).containsPattern("\"provider\"\\s*:\\s*\"net\"");
            assertThat(Files.readString(table.toPath())).contains("wrote " + results.resolve("e4.csv"));
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
