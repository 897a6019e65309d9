package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench hyper}'s body once: the paper's row (6 × 40) and the measured queue pairs, n·(n − 1) for hyper and,
 * for classic over MEMQ/SR, per-thread send and receive endpoints' queue pairs to every unit (at 2 × 2: 32, the formula's
 * (n·t)² − t = 14 counts unit pairs); the buffers one producing thread holds, n·t for classic and n for hyper (both with
 * the own node's).
 */
class HyperCountsBenchmarkTest {

    @Test
    void thePapersRowAndTheMeasuredQueuePairs(@TempDir Path out) throws Exception {
        List<String> progress = new ArrayList<>();
        HyperCountsBenchmark.Report report = new HyperCountsBenchmark(List.of(2, 6), 40, 2, out, progress::add).run();
        List<String> lines = Files.readAllLines(report.csvFile());
        assertThat(lines).hasSize(3);
        // nodes, threads, classic / hybrid connections, classic connections at t = 2, measured queue pairs classic /
        // hyper, measured buffers per thread classic / hyper, buffers classic / hybrid, ratios classic / hybrid
        assertThat(lines.get(1)).isEqualTo("2,40,6360,2,14,32,2,4,2,79,1,79,1,");
        assertThat(lines.get(2)).startsWith("6,40,57560,30,142,").contains(",30,12,6,239,5,239,5,");
        assertThat(report.table()).contains("57,560 / 30");
        assertThat(report.plotFile()).exists();
        assertThat(progress).hasSize(2);
    }
}
