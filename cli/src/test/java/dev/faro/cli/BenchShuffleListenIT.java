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
 * is skipped with a note, the CSV is written, the run exits 0 and so do the workers it shuts down. A worker killed
 * during the run and not replaced within the replace timeout ends it with one line naming the lost worker (exit 1).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class BenchShuffleListenIT {

    @TempDir
    Path directory;

    /** {@code faro bench shuffle e4 --quick ARGS} listening on a free loopback port, with a secret file. */
    private FaroProcess coordinator(Path secretFile, File table, String... args) throws Exception {
        ClusterSecret.generate().writeFile(secretFile);
        List<String> command = new ArrayList<>(List.of(
                "bench",
                "shuffle",
                "e4",
                "--quick",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--secret-file",
                secretFile.toString()));
        command.addAll(List.of(args));
        return FaroProcess.start(table, command.toArray(String[]::new));
    }

    @Test
    void e4RunsOnTwoJoinedWorkers() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        Path results = directory.resolve("results");
        File table = directory.resolve("table.txt").toFile();
        List<FaroProcess> workers = new ArrayList<>();
        try (FaroProcess coordinator = coordinator(secretFile, table, "--out", results.toString())) {
            FaroProcess.joinWorkers(coordinator, 2, secretFile, directory, workers);
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

    @Test
    void aLostWorkerThatIsNotReplacedEndsTheRunWithOneLineNamingIt() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        List<FaroProcess> workers = new ArrayList<>();
        try (FaroProcess coordinator = coordinator(
                secretFile,
                directory.resolve("table.txt").toFile(),
                "--join-timeout",
                "20s",
                "--replace-timeout",
                "3s",
                "--out",
                directory.resolve("results").toString())) {
            FaroProcess.joinWorkers(coordinator, 2, secretFile, directory, workers);
            coordinator.awaitLine(line -> line.startsWith("[round 1/1, 1/20]"), 240);
            long pid = workers.get(1).process().pid();
            workers.get(1).process().destroyForcibly();
            int exit = coordinator.exit(240);
            List<String> stderr = coordinator.stderr();
            assertThat(exit)
                    .as("faro bench shuffle e4's exit code; it printed %s", stderr)
                    .isEqualTo(1);
            assertThat(stderr.getLast())
                    .startsWith("faro bench shuffle e4: the cluster is not ready after the replace timeout: node ")
                    .contains("(pid " + pid + " on ")
                    .contains("start one with --join 127.0.0.1:");
            assertThat(stderr).noneMatch(line -> line.contains("\tat ") || line.contains("Exception"));
            assertThat(workers.get(0).exit(60))
                    .as(
                            "the surviving worker is shut down; it printed %s",
                            workers.get(0).stderr())
                    .isZero();
        } finally {
            for (FaroProcess worker : workers) {
                worker.close();
            }
        }
    }
}
