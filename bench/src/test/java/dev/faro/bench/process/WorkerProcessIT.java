package dev.faro.bench.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class WorkerProcessIT {

    private final List<String> log = new CopyOnWriteArrayList<>();

    private WorkerProcess start(String name) {
        return WorkerProcess.start(WorkerSpec.of(name, EchoWorker.class, "a", "b"), log::add);
    }

    @Test
    void answersCommandsInOrderAndEndsWhenClosed() {
        WorkerProcess worker = start("echo");
        try (worker) {
            assertThat(worker.request("ECHO hello world")).isEqualTo("hello world");
            assertThat(worker.request("ECHO")).isEmpty();
            assertThat(worker.request("PRINT")).isEqualTo("printed");
            assertThat(worker.request("ECHO 0a1b")).isEqualTo("0a1b");
        }
        assertThat(worker.isAlive()).isFalse();
        assertThat(log).contains("[echo] echo worker a b up", "[echo] stray output that is no reply");
    }

    @Test
    void anErrorReplyFailsTheRequestButNotTheWorker() {
        try (WorkerProcess worker = start("failing")) {
            assertThatThrownBy(() -> worker.request("FAIL"))
                    .isInstanceOf(WorkerFailedException.class)
                    .hasMessage("worker 'failing' failed FAIL: IllegalStateException: asked to fail | second line");
            assertThat(worker.request("ECHO still here")).isEqualTo("still here");
        }
    }

    @Test
    void somethingNotInstalledIsOneLineWithoutTheWorkersStackTrace() {
        try (WorkerProcess worker = start("lacking")) {
            assertThatThrownBy(() -> worker.request("UNSUPPORTED"))
                    .isInstanceOf(WorkerFailedException.class)
                    .hasMessage("worker 'lacking' failed UNSUPPORTED: FaroException: this needs libsomething"
                            + " (apt-get install libsomething0)");
            assertThat(worker.request("ECHO still here")).isEqualTo("still here");
        }
        assertThat(log).noneMatch(line -> line.contains("\tat ") || line.contains("FaroException"));
    }

    @Test
    void aDeadWorkerIsNamedWithItsExitCodeAndLastErrors() {
        try (WorkerProcess worker = start("doomed")) {
            assertThatThrownBy(() -> worker.request("DIE 3"))
                    .isInstanceOf(WorkerFailedException.class)
                    .hasMessageStartingWith(
                            "worker 'doomed' (pid " + worker.pid() + ") died while running DIE: exit code 3")
                    .hasMessageContaining("dying with 3")
                    .satisfies(e ->
                            assertThat(((WorkerFailedException) e).workerName()).isEqualTo("doomed"));
            assertThatThrownBy(() -> worker.request("ECHO x"))
                    .isInstanceOf(WorkerFailedException.class)
                    .hasMessageContaining("died");
        }
    }

    @Test
    void aSilentWorkerTimesOutAndCloseStillEndsIt() {
        WorkerProcess worker = WorkerProcess.start(
                WorkerSpec.of("sleepy", EchoWorker.class).withReplyTimeout(Duration.ofMillis(200)), log::add);
        try (worker) {
            assertThatThrownBy(() -> worker.request("SLEEP 60000"))
                    .isInstanceOf(WorkerFailedException.class)
                    .hasMessageContaining("worker 'sleepy'")
                    .hasMessageContaining("did not answer SLEEP within 0.2 s");
        }
        assertThat(worker.isAlive()).isFalse();
    }

    @Test
    void theChildRunsThisJvmsJavaWithNativeAccessAndASmallHeap() {
        List<String> command = WorkerProcess.command(WorkerSpec.of("w", EchoWorker.class, "x"));
        assertThat(command.get(0)).endsWith("java");
        assertThat(command)
                .contains(
                        "-Xmx64m", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"));
        assertThat(command.subList(command.size() - 2, command.size()))
                .containsExactly(EchoWorker.class.getName(), "x");
    }

    @Test
    void specsRejectNamesThatAreNotOneWord() {
        assertThatThrownBy(() -> WorkerSpec.of("two words", EchoWorker.class))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
