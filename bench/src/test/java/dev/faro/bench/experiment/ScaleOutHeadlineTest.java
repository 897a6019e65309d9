package dev.faro.bench.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * E4's goal line against MPI's fastest run: Open MPI is bimodal on the development host (repartition at 1.05 or 2.8
 * GB/s run to run), so a design that beats MPI's median (its slow mode) by the goal but not its fast mode has not met
 * it.
 */
class ScaleOutHeadlineTest {

    private static TrialResult result(
            EndpointDesign design, ShufflePattern pattern, String series, double median, double min, double max) {
        Trial trial = Trial.of(series, 2, "2", pattern.label() + "@2", ShuffleCase.of(design, pattern, 2, 1, 1024));
        Trial placed = series.equals("MPI") ? trial.asMpi() : series.equals("TCP") ? trial.asTcp() : trial;
        return new TrialResult(placed, 3, median, min, max, 1, 1, 1e9, "");
    }

    private static List<String> findings(double designGigabytesPerSecond) {
        return new ScaleOutExperiment()
                .findings(List.of(
                        result(
                                EndpointDesign.MESQ_SR,
                                ShufflePattern.REPARTITION,
                                "MESQ/SR",
                                designGigabytesPerSecond,
                                designGigabytesPerSecond,
                                designGigabytesPerSecond),
                        result(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, "TCP", 1, 1, 1),
                        result(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, "MPI", 1.05, 1.05, 2.8),
                        result(EndpointDesign.MESQ_SR, ShufflePattern.BROADCAST, "MESQ/SR", 3, 3, 3),
                        result(EndpointDesign.MESQ_SR, ShufflePattern.BROADCAST, "MPI", 1, 1, 1)));
    }

    @Test
    void beatingMpisSlowModeIsNotTheGoal() {
        // 3.0 GB/s is 2.86x MPI's median but 1.07x its fastest run
        assertThat(findings(3.0).getFirst())
                .startsWith("goal at 2 nodes, MPI at equal cores (-np ")
                .contains("at its fastest of 3 runs (repartition 2.80 GB/s, median 1.05, slowest 1.05): NOT MET")
                .contains("best design MESQ/SR 1.07x MPI (>= 1.5)");
    }

    @Test
    void beatingMpisFastRunByTheGoalMeetsIt() {
        assertThat(findings(4.5).getFirst())
                .contains("): MET")
                .contains("best design MESQ/SR 1.61x MPI (>= 1.5)")
                .contains("MESQ/SR 1.61x MPI (>= 1)");
    }
}
