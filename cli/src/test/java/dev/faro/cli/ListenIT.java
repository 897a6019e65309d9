package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code faro tpch --listen} as a real process (so {@code $FARO_CLUSTER_SECRET} is surely unset): a listener other
 * hosts can reach is refused without a secret; on loopback a secret is generated into a file of the user's that goes
 * with the run; workers that do not all join within {@code --join-timeout} end the run with one line (exit 1) saying
 * how many joined and where the others join.
 */
class ListenIT {

    @Test
    void aListenerOtherHostsCanReachNeedsASecret() throws Exception {
        try (FaroProcess faro =
                FaroProcess.start(new File("/dev/null"), "tpch", "--listen", "0.0.0.0:0", "--workers", "2")) {
            assertThat(faro.exit(120)).isEqualTo(2);
            assertThat(faro.stderr())
                    .containsExactly("faro tpch: --listen 0.0.0.0:0 lets other hosts join, so the"
                            + " workers must prove a secret: give --secret-file FILE or set $FARO_CLUSTER_SECRET");
        }
    }

    @Test
    void workersThatDoNotJoinInTimeEndTheRunWithOneLine() throws Exception {
        try (FaroProcess faro = FaroProcess.start(
                new File("/dev/null"),
                "tpch",
                "--listen",
                "127.0.0.1:0",
                "--workers",
                "2",
                "--join-timeout",
                "3s",
                "--sf",
                "0.01")) {
            faro.awaitLine(line -> line.startsWith("waiting for workers: 0 of 2 joined"), 120);
            String note = faro.stderr().stream()
                    .filter(line -> line.startsWith("no secret given: generated one"))
                    .findFirst()
                    .orElseThrow();
            Path secretFile = Path.of(note.substring(note.lastIndexOf("--secret-file ") + "--secret-file ".length()));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretFile)))
                    .isEqualTo("rw-------");
            String join = faro.stderr().stream()
                    .filter(line -> line.startsWith("listening on "))
                    .findFirst()
                    .orElseThrow()
                    .split(" ")[2];

            assertThat(faro.exit(120)).isEqualTo(1);
            List<String> stderr = faro.stderr();
            assertThat(stderr.getLast())
                    .isEqualTo("faro tpch: only 0 of 2 workers joined within 3 s; start the" + " others with --join "
                            + join + " and the cluster's secret");
            assertThat(stderr).noneMatch(line -> line.contains("\tat ") || line.contains("Exception"));
            assertThat(secretFile).as("the generated secret goes with the run").doesNotExist();
        }
    }
}
