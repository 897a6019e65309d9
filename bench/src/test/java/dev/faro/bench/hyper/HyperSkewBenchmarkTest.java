package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code faro bench hyper}'s V2 body once, on small key domains: a row per node count and domain, CSV and plot. */
class HyperSkewBenchmarkTest {

    @Test
    void aRowPerNodeCountAndDomainWithThePapersMarkOnSixByForty(@TempDir Path out) {
        List<String> progress = new ArrayList<>();
        HyperSkewBenchmark.Report report =
                new HyperSkewBenchmark(List.of(2, 6), 40, 0.84, List.of(1_000L, 100_000L), out, progress::add).run();
        List<String> lines = Files.exists(report.csvFile()) ? readLines(report.csvFile()) : List.of();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(3)).startsWith("2,40,0.84,100000,80,");
        assertThat(lines.get(4)).startsWith("6,40,0.84,100000,240,").endsWith("> 2x; +2.8 %");
        for (String line : lines.subList(1, 5)) {
            String[] cells = line.split(",");
            double classic = Double.parseDouble(cells[5]);
            double hybrid = Double.parseDouble(cells[7]);
            assertThat(classic).isGreaterThan(hybrid);
            assertThat(hybrid).isGreaterThanOrEqualTo(1.0);
        }
        assertThat(report.table()).contains("100,000");
        assertThat(report.plotFile()).exists();
        assertThat(progress).hasSize(2);
    }

    @Test
    void badValuesAreRefused(@TempDir Path out) {
        assertThatThrownBy(() -> new HyperSkewBenchmark(List.of(0), 40, 0.84, List.of(10L), out, s -> {}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HyperSkewBenchmark(List.of(2), 40, -1, List.of(10L), out, s -> {}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HyperSkewBenchmark(List.of(2), 40, 0.84, List.of(), out, s -> {}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
