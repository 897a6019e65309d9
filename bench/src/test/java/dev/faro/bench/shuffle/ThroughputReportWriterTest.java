package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.EndpointDesign;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThroughputReportWriterTest {

    private static ThroughputResult result(EndpointDesign design, int nodes, double gigabytes) {
        return new ThroughputResult(
                design, nodes, 3, gigabytes, gigabytes * 1e3 / 16, gigabytes * 0.9, gigabytes * 1.1, 1e8, 0.5, "");
    }

    private final List<ThroughputResult> results = List.of(
            result(EndpointDesign.MESQ_SR, 2, 1.0),
            result(EndpointDesign.MEMQ_SR, 2, 0.5),
            ThroughputResult.failed(EndpointDesign.MESQ_SR, 4, "node 1 failed: NETWORK: boom"),
            result(EndpointDesign.MEMQ_SR, 4, 0.25));

    @Test
    void theTableGivesMediansRatiosToTheBestFailuresAndNotes() {
        String table = ThroughputReportWriter.table(results, List.of("oversubscribed"));

        assertThat(table.lines().toList().get(0))
                .contains("nodes", "design", "GB/s per node", "M tuples/s per node", "vs best");
        List<String> lines = table.lines().toList();
        assertThat(lines.get(2)).matches(" +2 +MESQ/SR +1\\.000 +62\\.50 +0\\.900-1\\.100 +0\\.500 +3 +1\\.00");
        assertThat(lines.get(3)).matches(" +2 +MEMQ/SR +0\\.500 +31\\.25 .* +0\\.50");
        assertThat(lines.get(4)).matches(" +4 +MESQ/SR +failed");
        assertThat(lines.get(5)).endsWith("1.00"); // the best at 4 nodes among those that ran
        assertThat(table)
                .contains("MESQ/SR at 4 nodes failed: node 1 failed: NETWORK: boom")
                .contains("note: oversubscribed");
    }

    @Test
    void csvAndPlotAreWritten(@TempDir Path out) throws Exception {
        ShuffleThroughputConfig config = ShuffleThroughputConfig.quick()
                .withOutputDirectory(out)
                .withDesigns(List.of(EndpointDesign.MESQ_SR, EndpointDesign.MEMQ_SR));
        List<List<String>> rows = ThroughputReportWriter.csvRows("shm", config, results);
        assertThat(rows.get(0)).startsWith("shm", "repartition", "2", "MESQ/SR", "2", "16", "3", "1.0000", "62.5000");
        assertThat(rows.get(2)).endsWith("node 1 failed: NETWORK: boom");

        Path png = out.resolve("plot.png");
        ThroughputReportWriter.writePlot(png, "shm", config, results);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(new String(bytes, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
