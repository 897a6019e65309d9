package dev.faro.bench.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs E4 in its quick form with real workers: the eight designs, TCP and MPI, repartition and broadcast, at 2 and 4
 * nodes. Every row is present and has a number (MPI rows are skipped, with a note, where Open MPI is missing), every
 * run delivered exactly once, and the files are written. Never asserts speed.
 */
class ScaleOutExperimentIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    @Test
    void quickRunHasEveryRowAndWritesTheFiles(@TempDir Path out) throws Exception {
        ScaleOutExperiment experiment = new ScaleOutExperiment();
        ExperimentSettings settings = experiment.defaults(true).withOutputDirectory(out);

        ExperimentReport report = experiment.run(settings, progress::add);

        // 2 patterns x 2 node counts x (8 designs + TCP + MPI)
        assertThat(report.results()).hasSize(2 * 2 * 10);
        boolean mpiAvailable = report.results().stream().anyMatch(r -> r.trial().mpi() && r.succeeded());
        for (TrialResult result : report.results()) {
            if (result.trial().mpi() && !mpiAvailable) {
                assertThat(result.skipped()).as("%s", result).isTrue();
                continue;
            }
            assertThat(result.failure()).as("%s", result).isEmpty();
            assertThat(result.gigabytesPerSecond()).as("%s", result).isPositive();
        }
        if (!mpiAvailable) {
            assertThat(report.table()).contains("MPI baseline skipped");
        } else {
            assertThat(report.table()).contains("vs MPI").contains("goal at 2 nodes");
        }
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + report.results().size());
        assertThat(csv.get(0)).startsWith("experiment,group,series,contender,x,pattern,nodes").contains("vs MPI");
        for (String series : List.of("SESQ/SR", "MESQ/SR", "SEMQ/SR", "MEMQ/SR", "SEMQ/RD", "MEMQ/RD", "SEMQ/WR",
                "MEMQ/WR", "TCP", "MPI")) {
            for (String group : List.of("repartition@2", "repartition@4", "broadcast@2", "broadcast@4")) {
                assertThat(csv).as("%s %s", series, group).anyMatch(line -> line.startsWith("e4," + group + "," + series + ","));
            }
        }
        assertThat(Files.readString(report.metadataFile())).contains("\"experiment\": \"e4\"").contains("\"cores\"")
                .contains("\"jdk\"").contains("\"tuplesPerThread\"");
        assertThat(report.plotFiles()).hasSize(2);
        for (Path png : report.plotFiles()) {
            byte[] bytes = Files.readAllBytes(png);
            assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        }
    }
}
