package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the throughput experiment's body once in its quick form (every implemented design at 2 and 4 nodes, one small
 * run each) with real workers. Asserts that every bar has a positive number and that the files are written; never
 * asserts speed.
 */
class ShuffleThroughputIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    @Test
    void everyDesignAtEveryNodeCountProducesAPositiveThroughput(@TempDir Path out) throws Exception {
        ShuffleThroughputConfig config = ShuffleThroughputConfig.quick().withOutputDirectory(out);

        ShuffleThroughputReport report = new ShuffleThroughput(config, progress::add).run();

        assertThat(report.results())
                .hasSize(config.designs().size() * config.nodeCounts().size());
        for (ThroughputResult result : report.results()) {
            assertThat(result.failure()).as("%s", result).isEmpty();
            assertThat(result.gigabytesPerSecond()).as("%s", result).isPositive();
            assertThat(result.megaTuplesPerSecond()).as("%s", result).isPositive();
            assertThat(result.runs()).isEqualTo(1);
            // repartition: each node gets its share of every node's tuples, 16 bytes each
            double expectedBytesPerNode =
                    (double) config.threads() * config.tuplesPerThread() * config.scans() * ShuffleTuples.TUPLE_BYTES;
            assertThat(result.bytesPerNode()).as("%s", result).isEqualTo(expectedBytesPerNode);
        }
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + report.results().size());
        assertThat(csv.get(0)).startsWith("provider,pattern,nodes,design,threads,tuple_bytes,runs,gbps_per_node");
        assertThat(csv.get(1)).startsWith("shm,repartition,2,SESQ/SR,2,16,1,");
        assertThat(Files.readString(report.metadataFile()))
                .contains("\"experiment\": \"shuffle-throughput\"")
                .contains("\"cores\"");
        assertPng(report.plotFile());
        assertThat(report.table()).contains("GB/s per node", "M tuples/s per node", "MESQ/SR");
        assertThat(progress).anyMatch(line -> line.contains("GB/s per node"));
    }

    private static void assertPng(Path file) throws IOException {
        byte[] png = Files.readAllBytes(file);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
