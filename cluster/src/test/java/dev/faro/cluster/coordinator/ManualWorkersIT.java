package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.WorkerMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-host shape on one host: a coordinator that only listens ({@link Coordinator#listen}) and workers started
 * by hand with {@code WorkerMain --join HOST:PORT --secret-file F}, as an operator (or ssh, srun) would. Covers the
 * secret file (0600), refusals, and a lost worker replaced by starting another one by hand.
 */
class ManualWorkersIT {

    private static final Duration ROUND = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void workersStartedByHandJoinWithASecretFileAndALostOneIsReplacedByHand() throws Exception {
        ClusterSecret secret = ClusterSecret.generate();
        Path secretFile = directory.resolve("secret");
        secret.writeFile(secretFile);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretFile)))
                .isEqualTo("rw-------");
        Path shm = Files.createDirectory(directory.resolve("shm"));

        try (Coordinator coordinator = Coordinator.listen(
                ClusterConfig.local(2).withBind("127.0.0.1", 0).withProviderOption("shm.directory", shm.toString()),
                secret)) {
            String join = "127.0.0.1:" + coordinator.address().getPort();
            Process first = startWorker("--join", join, "--secret-file", secretFile.toString());
            startWorker("--join", join, "--secret-file", secretFile.toString());
            coordinator.awaitWorkers(ROUND);

            List<TaskReply> echoes = coordinator.runOnAll("echo", Json.object(), ROUND);
            assertThat(echoes)
                    .extracting(reply -> reply.result().get("node").asInt())
                    .containsExactly(0, 1);

            Path wrongSecret = directory.resolve("wrong");
            ClusterSecret.of("wrong").writeFile(wrongSecret);
            Process refused = startWorker("--join", join, "--secret-file", wrongSecret.toString());
            assertThat(refused.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(refused.exitValue())
                    .as("exit code of a worker with the wrong secret")
                    .isEqualTo(2);

            Process noSecret = startWorker("--join", join);
            assertThat(noSecret.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(noSecret.exitValue())
                    .as("exit code of a worker without a secret")
                    .isEqualTo(1);

            int lostNode = (int) coordinator.workerPids().indexOf(first.pid());
            first.destroyForcibly().waitFor();
            startWorker("--join", join, "--secret-file", secretFile.toString());
            List<TaskReply> afterReplacement = coordinator.runOnAll("echo", Json.object(), ROUND);
            assertThat(afterReplacement.get(lostNode).result().get("pid").asLong())
                    .isNotEqualTo(first.pid());
        }
        for (Process process : started) {
            assertThat(process.waitFor(30, TimeUnit.SECONDS))
                    .as("worker %d exits", process.pid())
                    .isTrue();
        }
    }

    private Process startWorker(String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "-Xmx256m",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                WorkerMain.class.getName()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
        Process process = builder.start();
        started.add(process);
        return process;
    }
}
