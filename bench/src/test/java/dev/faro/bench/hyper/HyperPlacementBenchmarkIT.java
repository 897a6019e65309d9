package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench hyper --experiments v8} at SF 0.01 on two worker JVMs over hyper, for Q3, Q12 and Q18 (joins of
 * ORDERS and LINEITEM): both placements load and run them (row counts equal, checked by the benchmark), and
 * first-key placement shuffles fewer bytes for each. Never asserts speed.
 */
class HyperPlacementBenchmarkIT {

    private static final List<Integer> QUERIES = List.of(3, 12, 18);

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
    void firstKeyPlacementShufflesLessAndAnswersTheSame(@TempDir Path out) throws Exception {
        HyperPlacementBenchmark.Report report =
                new HyperPlacementBenchmark(List.of(0.01), QUERIES, 2, 2, "hyper", 1, out, line -> {}).run();
        assertThat(report.table()).contains("chunked MB", "GB per SF", "0.28 vs 0.09 GB/SF");
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + 2 * QUERIES.size());
        Map<String, Long> bytes = new HashMap<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] cells = line.split(",");
            bytes.put(cells[4] + "/Q" + cells[5], Long.parseLong(cells[6]));
        }
        for (int query : QUERIES) {
            assertThat(bytes.get("first-key/Q" + query))
                    .as("Q" + query)
                    .isPositive()
                    .isLessThan(bytes.get("random/Q" + query));
        }
        byte[] png = Files.readAllBytes(report.plotFile());
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
