package dev.faro.bench.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ModelTable}: the goal's verdict (the model a lower bound, within 25 %) and the tables' cells. */
class ModelTableTest {

    private static final double[] NO_PAPER = {Double.NaN, Double.NaN};

    @Test
    void aPhaseMeetsTheGoalOnlyAtOrAboveTheModelAndWithin25Percent() {
        assertThat(ModelTable.met(1.00, 1.00)).isTrue();
        assertThat(ModelTable.met(1.25, 1.00)).isTrue();
        assertThat(ModelTable.met(1.26, 1.00)).isFalse();
        assertThat(ModelTable.met(0.99, 1.00)).isFalse();
        assertThat(ModelTable.met(Double.NaN, 1.00)).isFalse();
        assertThat(ModelTable.met(1.00, Double.NaN)).isFalse();
        assertThat(ModelTable.verdict(1.10, 1.00)).isEqualTo("met");
        assertThat(ModelTable.verdict(0.90, 1.00)).isEqualTo("below model");
        assertThat(ModelTable.verdict(1.50, 1.00)).isEqualTo("over 25 %");
        assertThat(ModelTable.verdict(1.00, Double.NaN)).isEqualTo("-");
    }

    @Test
    void theSummaryCountsJudgedPhasesOnWallAndCpuAndNamesTheCpuMisses() {
        List<ModelTable.Phase> phases = List.of(
                new ModelTable.Phase("histogram", 2.0, 1.0, 1.1, 1.0, true, NO_PAPER),
                new ModelTable.Phase("  of which the scans", 1.0, 1.0, Double.NaN, Double.NaN, false, NO_PAPER),
                new ModelTable.Phase("build-probe", 1.1, 1.0, 0.8, 1.0, true, NO_PAPER),
                new ModelTable.Phase("total", 5.0, 3.0, Double.NaN, Double.NaN, false, NO_PAPER));
        assertThat(ModelTable.summary(phases))
                .contains("wall 1 of 2 phases, CPU 1 of 2")
                .contains("missed on CPU: build-probe (CPU -20%)");
        String table = ModelTable.table(phases).format();
        assertThat(table).contains("below model").contains("over 25 %").contains("+100%");
        String points =
                ModelTable.pointsTable(List.of("1:1 2x2"), List.of(phases)).format();
        assertThat(points).contains("+10% (+100%)").contains("-20%* (+10%)");
    }

    /** Points judge different phases (one local pass at 1 node, two at 2): each cell stands under its own phase. */
    @Test
    void thePointsTableHasAColumnPerPhaseJudgedAnywhere() {
        ModelTable.Phase histogram = new ModelTable.Phase("histogram", 1.0, 1.0, 1.0, 1.0, true, NO_PAPER);
        ModelTable.Phase local = new ModelTable.Phase("local partitioning", 1.2, 1.0, 1.2, 1.0, true, NO_PAPER);
        ModelTable.Phase buildProbe = new ModelTable.Phase("build-probe", 1.1, 1.0, 1.1, 1.0, true, NO_PAPER);
        List<String> lines = ModelTable.pointsTable(
                        List.of("1 node", "2 nodes"),
                        List.of(List.of(histogram, buildProbe), List.of(histogram, local, buildProbe)))
                .format()
                .lines()
                .toList();
        String header = lines.getFirst();
        assertThat(header.indexOf("build-probe")).isGreaterThan(header.indexOf("local partitioning"));
        String oneNode =
                lines.stream().filter(l -> l.startsWith("1 node")).findFirst().orElseThrow();
        String twoNodes =
                lines.stream().filter(l -> l.startsWith("2 nodes")).findFirst().orElseThrow();
        int buildProbeColumn = header.indexOf("build-probe");
        assertThat(oneNode.substring(buildProbeColumn)).startsWith("+10%");
        assertThat(twoNodes.substring(buildProbeColumn)).startsWith("+10%");
        assertThat(oneNode.substring(header.indexOf("local partitioning"))).startsWith("-");
    }
}
