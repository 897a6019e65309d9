package dev.faro.bench.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requirements;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs E4 in its quick form with real workers: the eight designs, TCP and MPI, repartition and broadcast, at 2 and 4
 * nodes. Every row is present and has a number, every run delivered exactly once, and the files are written. Never
 * asserts speed. Where Open MPI is missing the MPI rows are skipped with the experiment's note saying so, and this
 * test says in one loud line that they did not run (under {@code FARO_REQUIRE=mpi} it fails instead).
 */
class ScaleOutExperimentIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    @Test
    void quickRunHasEveryRowAndWritesTheFiles(@TempDir Path out) throws Exception {
        ScaleOutExperiment experiment = new ScaleOutExperiment();
        ExperimentSettings settings = experiment.defaults(true).withOutputDirectory(out);

        boolean mpiAvailable = Requirements.available(Requirement.MPI, "ScaleOutExperimentIT's MPI rows");
        ExperimentReport report = experiment.run(settings, progress::add);

        // 2 patterns x 2 node counts x (8 designs + TCP + MPI)
        assertThat(report.results()).hasSize(2 * 2 * 10);
        for (TrialResult result : report.results()) {
            if (result.trial().mpi() && !mpiAvailable) {
                assertThat(result.skipped()).as("%s", result).isTrue();
                continue;
            }
            assertThat(result.failure()).as("%s", result).isEmpty();
            assertThat(result.gigabytesPerSecond()).as("%s", result).isPositive();
        }
        if (!mpiAvailable) {
            assertThat(report.table())
                    .contains("MPI baseline skipped: Open MPI is not installed")
                    .contains("apt-get install openmpi-bin");
        } else {
            assertThat(report.table())
                    .contains("vs MPI")
                    .contains("goal at 2 nodes, MPI at equal cores (-np ")
                    .contains("note: MPI rows repartition@2");
        }
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + report.results().size());
        assertThat(csv.get(0))
                .startsWith("experiment,group,series,contender,x,pattern,nodes")
                .contains("vs MPI");
        for (String series : List.of(
                "SESQ/SR", "MESQ/SR", "SEMQ/SR", "MEMQ/SR", "SEMQ/RD", "MEMQ/RD", "SEMQ/WR", "MEMQ/WR", "TCP", "MPI")) {
            for (String group : List.of("repartition@2", "repartition@4", "broadcast@2", "broadcast@4")) {
                assertThat(csv)
                        .as("%s %s", series, group)
                        .anyMatch(line -> line.startsWith("e4," + group + "," + series + ","));
            }
        }
        assertThat(Files.readString(report.metadataFile()))
                .contains("\"experiment\": \"e4\"")
                .contains("\"cores\"")
                .contains("\"jdk\"")
                .contains("\"tuplesPerThread\"");
        assertThat(report.plotFiles()).hasSize(2);
        for (Path png : report.plotFiles()) {
            byte[] bytes = Files.readAllBytes(png);
            assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }
}
