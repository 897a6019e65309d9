package dev.faro.bench.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requirements;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every experiment besides E4 (which {@link ScaleOutExperimentIT} covers) in its quick form with real workers:
 * every trial succeeds with a positive number, every run delivers exactly once, and the CSV, JSON and PNG files are
 * written with one row per trial. Never asserts speed. Where Open MPI is missing, MPI trials are skipped and this test
 * says so in one loud line (under {@code FARO_REQUIRE=mpi} it fails instead).
 */
class ExperimentsQuickIT {

    static Stream<ExperimentDriver> drivers() {
        return Stream.of(
                new CreditFrequencyExperiment(),
                new WriteCompletionExperiment(),
                new MessageSizeExperiment(),
                new QueuePairExperiment(),
                new SetupTimeExperiment(),
                new ReceiveComputeExperiment(),
                new BufferPolicyExperiment());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("drivers")
    void quickRunSucceedsAndWritesTheFiles(ExperimentDriver driver, @TempDir Path out) throws Exception {
        List<String> progress = new CopyOnWriteArrayList<>();

        ExperimentReport report = driver.run(driver.defaults(true).withOutputDirectory(out), progress::add);

        assertThat(report.results()).isNotEmpty();
        boolean mpiAvailable = report.results().stream()
                        .noneMatch(r -> r.trial().mpi())
                || Requirements.available(Requirement.MPI, "ExperimentsQuickIT[" + driver.name() + "]'s MPI trials");
        for (TrialResult result : report.results()) {
            if (result.trial().mpi() && !mpiAvailable) {
                assertThat(result.skipped()).as("%s", result).isTrue();
                continue;
            }
            assertThat(result.failure()).as("%s", result).isEmpty();
            assertThat(result.gigabytesPerSecond()).as("%s", result).isPositive();
            if (!result.trial().mpi() && !result.trial().local()) {
                assertThat(result.setupMillis()).as("%s", result).isPositive();
            }
            if (driver instanceof SetupTimeExperiment) {
                // the node's own part of the open is a part of the whole setup
                assertThat(result.ownOpenMillis())
                        .as("%s", result)
                        .isPositive()
                        .isLessThanOrEqualTo(result.setupMillis());
            }
            if (driver instanceof CreditFrequencyExperiment) {
                // resource counters: every Send/Receive receiver writes credit back; blocked shares are shares
                assertThat(result.creditWritesPerMebibyte()).as("%s", result).isPositive();
                assertThat(result.sendBlockedFraction()).as("%s", result).isBetween(0.0, 1.5);
                assertThat(result.receiveBlockedFraction()).as("%s", result).isBetween(0.0, 1.5);
            }
        }
        if (driver instanceof ReceiveComputeExperiment) {
            assertThat(report.results())
                    .as("the local-processing reference of every intensity")
                    .filteredOn(r -> r.trial().local())
                    .hasSize(ReceiveComputeExperiment.intensities(driver.defaults(true))
                            .size());
        }
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + report.results().size());
        assertThat(csv.subList(1, csv.size())).allMatch(line -> line.startsWith(driver.name() + ","));
        assertThat(Files.readString(report.metadataFile()))
                .contains("\"experiment\": \"" + driver.name() + "\"")
                .contains("\"paperFinding\"");
        assertThat(report.table()).contains("paper: ");
        for (Path png : report.plotFiles()) {
            byte[] bytes = Files.readAllBytes(png);
            assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }
}
