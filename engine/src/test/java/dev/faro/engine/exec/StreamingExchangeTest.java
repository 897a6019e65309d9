package dev.faro.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.expression.Expressions;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Table;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The streaming exchange between in-JVM nodes: a relation many times larger than the transport's buffers passes
 * through with the engine holding a bounded number of buffers (the consuming pipeline drains while the producing one
 * sends; nothing is materialized), and a failure on one node in the middle of a stream fails the query on every
 * node with that first error, without a hang.
 */
class StreamingExchangeTest {

    private static final int THREADS = 2;
    private static final int NODES = 2;
    private static final Schema BIG = Schema.of(
            new Column("k", DataType.BIGINT),
            new Column("v", DataType.BIGINT),
            new Column("s", DataType.varchar(6000)));
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(
                Path.of("/dev/shm"), "streaming-test-faro"); // not faro-*: a faro start sweeps those
    }

    @AfterAll
    static void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private static Table big(int node, int rows, String poison) {
        List<List<Object>> values = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            long key = (long) node * rows + i;
            String text = poison != null && i == rows * 3 / 4 ? poison : "row-" + key;
            values.add(TestTables.row(key, key % 1000, text));
        }
        return TestTables.table("big", BIG, values, 4096);
    }

    private static PlanNode countAfterRepartition() {
        return Plans.scan("big", BIG, "k", "v", "s")
                .repartition("k")
                .distributedAggregate(
                        List.of(),
                        Plans.countStar("rows"),
                        Plans.sum(Expressions.col("v"), "total"),
                        Plans.max(Expressions.col("s"), "largest"));
    }

    @Test
    void aRelationLargerThanTheTransportsBuffersStreamsWithBoundedBuffers() throws Exception {
        int rows = 120_000;
        int bufferBytes = 8192;
        int buffersPerPeer = 4;
        List<List<Table>> perNode = List.of(List.of(big(0, rows, null)), List.of(big(1, rows, null)));
        List<InJvmCluster.Outcome> outcomes = InJvmCluster.run(
                directory,
                countAfterRepartition(),
                perNode,
                THREADS,
                EndpointDesign.MEMQ_SR,
                config -> config.withBufferBytes(bufferBytes)
                        .withBuffersPerPeer(buffersPerPeer)
                        .withStallTimeout(Duration.ofSeconds(30)),
                "streaming");
        long expectedTotal = 0;
        for (long key = 0; key < (long) NODES * rows; key++) {
            expectedTotal += key % 1000;
        }
        assertThat(outcomes.get(0).failure()).isNull();
        assertThat(outcomes.get(1).failure()).isNull();
        assertThat(outcomes.get(0).result().rows())
                .containsExactly(List.of((long) NODES * rows, expectedTotal, "row-99999"));
        // ME: per node and side, one endpoint per thread with buffersPerPeer buffers per peer
        long transportBytes = 2L * bufferBytes * buffersPerPeer * NODES * THREADS;
        for (InJvmCluster.Outcome outcome : outcomes) {
            ExchangeStatistics repartition =
                    outcome.result().statistics().exchanges().getFirst();
            assertThat(repartition.bytesSent()).isGreaterThan(10 * transportBytes);
            assertThat(repartition.rowsReceived()).isPositive();
            // each producing thread holds at most one open buffer per group, each consuming thread one received one
            assertThat(repartition.buffersHeldHighWater()).isBetween(1, THREADS * (NODES + 1));
        }
    }

    @Test
    void aRowTooLargeOnOneNodeInTheMiddleOfAStreamFailsEveryNode() throws Exception {
        int rows = 40_000;
        List<List<Table>> perNode = List.of(List.of(big(0, rows, null)), List.of(big(1, rows, "x".repeat(5000))));
        List<InJvmCluster.Outcome> outcomes = InJvmCluster.run(
                directory,
                countAfterRepartition(),
                perNode,
                THREADS,
                EndpointDesign.MESQ_SR, // 4 KiB datagram buffers: the 5,000-byte string cannot travel
                config -> config.withStallTimeout(Duration.ofSeconds(3)),
                "too-large");
        for (int node = 0; node < NODES; node++) {
            // every node's error carries the first error (node 1's), not "failed at node 1" or its own stall
            assertThat(outcomes.get(node).failure())
                    .as("node " + node)
                    .isInstanceOf(QueryExecutionException.class)
                    .hasMessageContaining("a row takes 5")
                    .hasMessageContaining("MESQ/SR buffer");
        }
        assertThat(outcomes.get(0).failure()).hasMessageContaining("the query failed first at node 1");
        assertThat(outcomes.get(1).failure().getCause())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exchange 0 (REPARTITION")
                .hasMessageContaining("a row takes 5")
                .hasMessageContaining("MESQ/SR buffer");
    }
}
