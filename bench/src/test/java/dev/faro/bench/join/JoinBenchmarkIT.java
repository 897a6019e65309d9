package dev.faro.bench.join;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench join}'s body once, small: two worker JVMs, k = 1 and 2, a bandwidth cap and none, both joins;
 * every result must equal the single-process join's, and the tables (with the paper's columns), CSV, JSON and the
 * plots must be written.
 */
class JoinBenchmarkIT {

    @TempDir
    Path output;

    @Test
    void aSmallRunMeasuresBothJoinsCorrectlyAndWritesItsReport() {
        JoinBenchConfig config = JoinBenchConfig.quick()
                .with(
                        null,
                        List.of(2),
                        List.of(1),
                        List.of("1:2"),
                        50_000L,
                        List.of(1, 2),
                        16 * 1024,
                        5,
                        1,
                        List.of(0L, 256L << 20, 1L << 30),
                        true,
                        output);
        JoinBenchReport report = new JoinBenchmark(config, line -> System.err.println("[bench join] " + line)).run();
        System.err.println(report.text());
        assertThat(report.rows())
                .hasSize(6)
                .allSatisfy(row -> assertThat(row.correct()).isTrue());
        assertThat(report.sortMergeRows())
                .hasSize(3)
                .allSatisfy(row -> assertThat(row.correct()).isTrue());
        assertThat(report.text())
                .contains("paper")
                .contains("Table 4.2 analogue")
                .contains("sort-merge join")
                .doesNotContain("MISMATCH");
        assertThat(report.csvFile()).exists();
        assertThat(report.metadataFile()).exists();
        assertThat(report.plotFile()).exists();
        assertThat(Files.exists(output.resolve("join-crossover.png"))).isTrue();
        assertThat(report.text())
                .contains("Table 4.2 analogue, sort-merge join")
                .contains("fabric bandwidth against message size")
                .contains("sort run (l = 8192)")
                .contains("CPU/thread")
                .contains("of which in the fabric (put + wait)")
                .contains("goal (model within 25 % of measured and a lower bound)");
        assertThat(report.rows())
                .allSatisfy(row ->
                        assertThat(row.measured().mean().buildProbeCpuNanos()).isPositive());
        assertThat(report.sortMergeRows())
                .allSatisfy(row -> assertThat(row.rates().fanIn()).isPositive());
    }

    @Test
    void strongScalingKeepsTheTotalInputAndReportsTheSpeedUp() {
        JoinBenchConfig config = JoinBenchConfig.quick()
                .with(
                        null,
                        List.of(1, 2),
                        List.of(1),
                        List.of("1:1"),
                        40_000L,
                        List.of(2),
                        16 * 1024,
                        5,
                        1,
                        null,
                        false,
                        output)
                .withScalings(List.of("strong"));
        JoinBenchReport report = new JoinBenchmark(config, line -> System.err.println("[bench join] " + line)).run();
        System.err.println(report.text());
        assertThat(report.rows()).hasSize(2).allSatisfy(row -> {
            assertThat(row.correct()).isTrue();
            assertThat(row.scaling()).isEqualTo("strong");
            assertThat(row.measured().tuples()).isEqualTo(160_000); // 2 x 40 k R + as many S, on 1 node and on 2
        });
        assertThat(report.text()).contains("strong scaling").contains("efficiency");
    }
}
