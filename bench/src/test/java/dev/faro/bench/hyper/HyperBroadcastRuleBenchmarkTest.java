package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.tpch.TpchJoin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code faro bench hyper}'s V3 body: a row per join, the flips at 2 × 2, a CSV row per join and node count. */
class HyperBroadcastRuleBenchmarkTest {

    @Test
    void listsEveryJoinAndTheFlipsOfTheMeasuredCluster(@TempDir Path out) throws Exception {
        HyperBroadcastRuleBenchmark.Report report = new HyperBroadcastRuleBenchmark(List.of(2, 6), 40, 2, 2, out).run();
        assertThat(report.table())
                .contains("4 of " + TpchJoin.values().length + " joins flip")
                .contains(TpchJoin.Q9_ORDERS.description(), "above 5 vs above 239");
        assertThat(report.table().lines().filter(line -> line.contains("flips")))
                .hasSize(4);
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + 2 * TpchJoin.values().length);
        // Q18's few large orders: broadcast by both modes even at 6 x 40
        assertThat(csv)
                .contains(csv.stream()
                        .filter(line -> line.startsWith("Q18_LINEITEMS,18,") && line.contains(",6,40,"))
                        .findFirst()
                        .orElseThrow());
        assertThat(csv.stream().filter(line -> line.startsWith("Q18_LINEITEMS,18,") && line.contains(",6,40,")))
                .allMatch(line -> line.endsWith(",broadcast,broadcast"));
        // Q3's orders: hybrid broadcasts at 6 nodes, classic repartitions at 240 units
        assertThat(csv.stream().filter(line -> line.startsWith("Q3_ORDERS,3,") && line.contains(",6,40,")))
                .singleElement()
                .satisfies(line -> assertThat(line).endsWith(",broadcast,repartition"));
        assertThat(report.plotFile()).exists();
    }

    @Test
    void badValuesAreRefused(@TempDir Path out) {
        assertThatThrownBy(() -> new HyperBroadcastRuleBenchmark(List.of(0), 40, 2, 2, out))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HyperBroadcastRuleBenchmark(List.of(2), 0, 2, 2, out))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
