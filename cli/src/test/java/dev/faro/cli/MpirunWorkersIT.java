package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
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
 * Workers launched by Open MPI: {@code mpirun -np 2 faro worker --join 127.0.0.1:PORT} against a {@code faro tpch
 * --listen 127.0.0.1:0 --workers 2 --provider net}, as the README's "Several hosts" shows for several hosts (there with
 * {@code --host}). Every rank joins (node ids from the coordinator, in join order), the queries run, and when the run
 * ends every rank exits 0, so {@code mpirun} does too. {@code --bind-to none} leaves each JVM every core.
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
        try (FaroProcess coordinator = FaroProcess.start(answers, List.of(), "256m", "tpch", "--listen",
                "127.0.0.1:0", "--workers", "2", "--provider", "net", "--sf", "0.01", "--queries", "3,4",
                "--secret-file", secretFile.toString())) {
            coordinator.awaitLine(line -> line.startsWith("listening on "), 120);
            String join = coordinator.stderr().stream().filter(line -> line.startsWith("listening on ")).findFirst()
                    .orElseThrow().split(" ")[2];
            List<String> command = new ArrayList<>(List.of("mpirun", "--oversubscribe", "--bind-to", "none", "-np",
                    "2"));
            if (ProcessHandle.current().info().user().orElse("").equals("root")) {
                command.add("--allow-run-as-root");
            }
            command.addAll(List.of(ProcessHandle.current().info().command().orElseThrow(),
                    "-Xmx" + TpchSession.workerHeapMiB(2, 0.01) + "m", "--enable-native-access=ALL-UNNAMED", "-cp",
                    System.getProperty("java.class.path"), FaroCommand.class.getName(), "worker", "--join", join,
                    "--secret-file", secretFile.toString()));
            Path ranksOutput = directory.resolve("mpirun.out");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ranksOutput.toFile());
            builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
            Process mpirun = builder.start();
            try {
                int exit = coordinator.exit(180);
                assertThat(exit).as("faro tpch's exit code; it printed %s", coordinator.stderr()).isZero();
                assertThat(mpirun.waitFor(60, TimeUnit.SECONDS)).as("mpirun ends with the run").isTrue();
                String ranks = Files.readString(ranksOutput);
                System.out.println("[mpirun] " + ranks.strip().replace("\n", "\n[mpirun] "));
                assertThat(mpirun.exitValue()).as("mpirun's exit code; the ranks printed %s", ranks).isZero();
                assertThat(ranks).contains("as node 0 of 2", "as node 1 of 2");
                assertThat(coordinator.stderr()).anyMatch(line -> line.startsWith("waiting for workers: 2 of 2"));
                assertThat(Files.readString(answers.toPath())).contains("Q3: 10 rows", "Q4: 5 rows");
            } finally {
                mpirun.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
                mpirun.destroyForcibly();
            }
        }
    }
}
