package dev.faro.cluster.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A worker's stack trace reaches the terminal as its exception line plus one line naming the log file. */
class StackTraceDiversionTest {

    @Test
    void framesGoToTheLogFileAndTheTerminalGetsWhereTheyAre() throws Exception {
        long pid = ProcessHandle.current().pid() * 1000 + System.nanoTime() % 1000; // a file of this test's own
        StackTraceDiversion diversion = new StackTraceDiversion(7, pid);
        List<String> worker = List.of(
                "faro worker: node 7: task 'query' failed:",
                "java.lang.IllegalStateException: boom",
                "\tat dev.faro.Foo.bar(Foo.java:12)",
                "\tat java.base/java.lang.Thread.run(Thread.java:1474)",
                "Caused by: java.io.IOException: deeper",
                "\t... 2 more",
                "faro worker: node 7: next line");
        List<String> shown = new ArrayList<>();
        for (String line : worker) {
            String out = diversion.divert(line);
            if (out != null) {
                shown.add(out);
            }
        }
        diversion.close();
        Path log = StackTraceDiversion.LOG_DIRECTORY.resolve("node-7-pid-" + pid + ".log");
        try {
            assertThat(shown)
                    .containsExactly(
                            "faro worker: node 7: task 'query' failed:",
                            "java.lang.IllegalStateException: boom",
                            "(stack trace written to " + log + ")",
                            "faro worker: node 7: next line");
            assertThat(Files.readAllLines(log))
                    .containsExactly(
                            "java.lang.IllegalStateException: boom",
                            "\tat dev.faro.Foo.bar(Foo.java:12)",
                            "\tat java.base/java.lang.Thread.run(Thread.java:1474)",
                            "Caused by: java.io.IOException: deeper",
                            "\t... 2 more",
                            "faro worker: node 7: next line");
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void ordinaryLinesAreNotTraceLines() {
        assertThat(StackTraceDiversion.isTraceLine("loaded 86,835 rows over 2 nodes in 7.7 s"))
                .isFalse();
        assertThat(StackTraceDiversion.isTraceLine("at most 64 nodes")).isFalse();
        assertThat(StackTraceDiversion.isTraceLine("\tat a.B.c(B.java:1)")).isTrue();
        assertThat(StackTraceDiversion.isTraceLine("        at a.B.c(Unknown Source)"))
                .isTrue();
    }
}
