package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requirements;
import dev.faro.fabric.testing.Requires;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code faro bench fabric} end to end, with real worker JVMs and tiny settings. Never asserts speed. */
class BenchFabricCommandIT {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = FaroCommand.newCommandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void aTinyRunPrintsTheTableAndWritesTheFiles(@TempDir Path directory) {
        assertThat(run(
                        "bench",
                        "fabric",
                        "--quick",
                        "--sizes",
                        "64,1K",
                        "--ops",
                        "write,ud-send",
                        "--runs",
                        "1",
                        "--seconds-per-point",
                        "0.01",
                        "--working-set",
                        "1M",
                        "--out",
                        directory.toString()))
                .as("stderr: %s", err)
                .isZero();
        assertThat(out.toString())
                .contains("op", "GB/s", "M msg/s", "memcpy GB/s", "ratio")
                .contains("RC WRITE", "UD SEND", "64 B", "1 KiB")
                .contains("fabric-shm.csv");
        assertThat(directory.resolve("fabric-shm.csv")).isNotEmptyFile();
        assertThat(directory.resolve("fabric-shm.json")).isNotEmptyFile();
        assertThat(directory.resolve("fabric-shm.png")).isNotEmptyFile();
    }

    @Test
    @Requires(Requirement.UCX)
    void onUcxATinyRunHasTheUcxPerftestReferenceOrSaysWhyNot(@TempDir Path directory) {
        boolean perftest = Requirements.available(Requirement.UCX_PERFTEST, "BenchFabricCommandIT's ucx_perftest row");
        assertThat(run(
                        "bench",
                        "fabric",
                        "--provider",
                        "ucx",
                        "--quick",
                        "--sizes",
                        "64",
                        "--ops",
                        "write",
                        "--runs",
                        "1",
                        "--seconds-per-point",
                        "0.01",
                        "--working-set",
                        "1M",
                        "--out",
                        directory.toString()))
                .as("stderr: %s", err)
                .isZero();
        assertThat(out.toString()).contains("provider ucx:", "RC WRITE", "64 B").contains("fabric-ucx.csv");
        if (perftest) {
            assertThat(out.toString()).contains("reference: ucx_perftest -t ucp_put_bw", "ucx RC WRITE");
        } else {
            assertThat(out.toString()).contains("ucx_perftest not installed (Debian ucx-utils): no UCX reference row");
        }
    }

    @Test
    void withoutLibucxTheUcxProviderFailsInOneLineNamingThePackage(@TempDir Path directory) {
        assumeTrue(Requirement.UCX.missing() != null, "libucx is installed here: its absence cannot be seen");
        assertThat(run(
                        "bench",
                        "fabric",
                        "--provider",
                        "ucx",
                        "--quick",
                        "--sizes",
                        "64",
                        "--ops",
                        "write",
                        "--runs",
                        "1",
                        "--seconds-per-point",
                        "0.01",
                        "--out",
                        directory.toString()))
                .isNotZero();
        assertThat(err.toString())
                .contains("faro bench fabric: ucx: ", "libucp.so.0 not found", "apt-get install libucx0")
                .doesNotContain("\tat ");
        assertThat(directory.resolve("fabric-ucx.csv")).doesNotExist();
    }

    @Test
    void nothingLeftToMeasureIsAUsageError(@TempDir Path directory) {
        assertThat(run(
                        "bench",
                        "fabric",
                        "--ops",
                        "ud-send",
                        "--sizes",
                        "16K",
                        "--runs",
                        "1",
                        "--seconds-per-point",
                        "0.01",
                        "--out",
                        directory.toString()))
                .isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString())
                .contains("UD SEND: skipping 16K (above the UD MTU of 4 KiB on shm)")
                .contains("nothing to measure")
                .doesNotContain("\tat ");
        assertThat(directory.resolve("fabric-shm.csv")).doesNotExist();
    }
}
