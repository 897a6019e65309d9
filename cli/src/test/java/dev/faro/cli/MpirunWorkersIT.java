package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers launched by Open MPI: {@code mpirun -np 2 faro worker --join 127.0.0.1:PORT} against a {@code faro tpch
 * --listen 127.0.0.1:PORT --workers 2 --provider net}, as the README's "Several hosts" shows for several hosts (there
 * with {@code --host}). The ranks start first, as in a batch script that launches everything at once: they wait for
 * the coordinator to listen. Every rank joins (node ids from the coordinator, in join order), the queries run, and
 * when the run ends every rank exits 0, so {@code mpirun} does too. {@code --bind-to none} leaves each JVM every core.
 */
@Requires(Requirement.MPI)
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class MpirunWorkersIT {

    @TempDir
    Path directory;

    @Test
    void mpirunRanksJoinAsWorkersAndExitCleanlyAfterTheRun() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        ClusterSecret.generate().writeFile(secretFile);
        File answers = directory.resolve("answers.txt").toFile();
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // free now; the coordinator binds it once the ranks wait for it
        }
        String join = "127.0.0.1:" + port;
        List<String> command = new ArrayList<>(List.of("mpirun", "--oversubscribe", "--bind-to", "none", "-np", "2"));
        if (ProcessHandle.current().info().user().orElse("").equals("root")) {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xmx" + TpchSession.workerHeapMiB(2, 0.01) + "m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                FaroCommand.class.getName(),
                "worker",
                "--join",
                join,
                "--secret-file",
                secretFile.toString()));
        Path ranksOutput = directory.resolve("mpirun.out");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ranksOutput.toFile());
        builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
        Process mpirun = builder.start();
        try {
            awaitText(ranksOutput, "faro worker: nothing listens at " + join + " yet", mpirun);
            try (FaroProcess coordinator = FaroProcess.start(
                    answers,
                    List.of(),
                    "256m",
                    "tpch",
                    "--listen",
                    join,
                    "--workers",
                    "2",
                    "--provider",
                    "net",
                    "--sf",
                    "0.01",
                    "--queries",
                    "3,4",
                    "--secret-file",
                    secretFile.toString())) {
                int exit = coordinator.exit(180);
                assertThat(exit)
                        .as("faro tpch's exit code; it printed %s", coordinator.stderr())
                        .isZero();
                assertThat(coordinator.stderr()).anyMatch(line -> line.startsWith("waiting for workers: 2 of 2"));
            }
            assertThat(mpirun.waitFor(60, TimeUnit.SECONDS))
                    .as("mpirun ends with the run")
                    .isTrue();
            String ranks = Files.readString(ranksOutput);
            System.out.println("[mpirun] " + ranks.strip().replace("\n", "\n[mpirun] "));
            assertThat(mpirun.exitValue())
                    .as("mpirun's exit code; the ranks printed %s", ranks)
                    .isZero();
            assertThat(ranks).contains("as node 0 of 2", "as node 1 of 2");
            assertThat(Files.readString(answers.toPath())).contains("Q3: 10 rows", "Q4: 5 rows");
        } finally {
            mpirun.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
        }
    }

    /** Waits (up to 2 minutes) until {@code file} contains {@code text}; fails early when {@code process} ended. */
    private static void awaitText(Path file, String text, Process process) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!(Files.exists(file) && Files.readString(file).contains(text))) {
            assertThat(process.isAlive())
                    .as("mpirun still runs; its ranks printed %s", Files.exists(file) ? Files.readString(file) : "")
                    .isTrue();
            assertThat(System.nanoTime() - deadline)
                    .as("'%s' within 2 minutes", text)
                    .isNegative();
            Thread.sleep(50);
        }
    }
}
