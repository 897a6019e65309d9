package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import dev.faro.shuffle.setup.EndpointFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Exactly-once delivery of the implemented designs with all nodes in one JVM over {@code shm}: every design ×
 * {repartition, multicast, broadcast} × {2, 3 nodes} × {1, 2 threads}. Each receiving node checks the count and an
 * order-independent checksum of what it must get, and, for RC designs with one receiving thread and disjoint groups,
 * that each sending thread's tuples arrive in order (RC keeps posting order; with overlapping multicast groups a
 * destination is fed from several output buffers per thread, so only per-buffer order holds there; UD may reorder).
 */
class InJvmShuffleTest {

    private static final int TUPLES_PER_THREAD = 20_000;
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-shuffle-test");
    }

    @AfterAll
    static void checkNothingLeft() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (EndpointDesign design : EndpointDesign.values()) {
            if (!EndpointFactory.isImplemented(design)) {
                continue;
            }
            for (String pattern : List.of("repartition", "multicast", "broadcast")) {
                for (int nodes : new int[] {2, 3}) {
                    for (int threads : new int[] {1, 2}) {
                        cases.add(Arguments.of(design, pattern, nodes, threads));
                    }
                }
            }
        }
        return cases.stream();
    }

    static TransmissionGroups groups(String pattern, int nodes) {
        return switch (pattern) {
            case "repartition" -> TransmissionGroups.repartition(nodes);
            case "broadcast" -> TransmissionGroups.broadcast(nodes);
            // overlapping groups: {0, 1}, {1, ..., n-1}, {0}
            case "multicast" ->
                TransmissionGroups.of(
                        nodes,
                        List.of(
                                new int[] {0, 1},
                                java.util.stream.IntStream.range(1, nodes).toArray(),
                                new int[] {0}));
            default -> throw new IllegalArgumentException(pattern);
        };
    }

    @ParameterizedTest(name = "{0} {1} nodes={2} threads={3}")
    @MethodSource("cases")
    void deliversEveryTupleExactlyOnce(EndpointDesign design, String pattern, int nodes, int threads) throws Exception {
        checkExactlyOnce(config(design, threads), pattern, nodes);
    }

    /** The RDMA WRITE designs in each of the three completion modes of TODS19 §5.5 (the matrix uses the default). */
    static Stream<Arguments> writeModeCases() {
        List<Arguments> cases = new ArrayList<>();
        for (EndpointDesign design : List.of(EndpointDesign.MEMQ_WR, EndpointDesign.SEMQ_WR)) {
            for (WriteCompletionMode mode : WriteCompletionMode.values()) {
                for (String pattern : List.of("repartition", "multicast", "broadcast")) {
                    for (int nodes : new int[] {2, 3}) {
                        for (int threads : new int[] {1, 2}) {
                            cases.add(Arguments.of(design, mode, pattern, nodes, threads));
                        }
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} {2} nodes={3} threads={4}")
    @MethodSource("writeModeCases")
    void deliversEveryTupleExactlyOnceInEveryWriteCompletionMode(
            EndpointDesign design, WriteCompletionMode mode, String pattern, int nodes, int threads) throws Exception {
        checkExactlyOnce(config(design, threads).withWriteCompletionMode(mode), pattern, nodes);
    }

    private static EndpointConfig config(EndpointDesign design, int threads) {
        return EndpointConfig.defaults(design, threads)
                .withBufferBytes(1024)
                .withBuffersPerPeer(4)
                .withStallTimeout(Duration.ofSeconds(20));
    }

    private static void checkExactlyOnce(EndpointConfig config, String pattern, int nodes) throws Exception {
        EndpointDesign design = config.design();
        int threads = config.threads();
        boolean ordered = threads == 1 && !pattern.equals("multicast");
        InJvmShuffle.Result result = InJvmShuffle.run(
                directory, config, groups(pattern, nodes), TUPLES_PER_THREAD, FaultInjection.NONE, ordered);
        for (int node = 0; node < nodes; node++) {
            assertThat(result.count()[node])
                    .as("tuples received by node %d", node)
                    .isEqualTo(result.expectedCount()[node]);
            assertThat(result.sum()[node]).as("checksum at node %d", node).isEqualTo(result.expectedSum()[node]);
            if (ordered && design.implementation() != EndpointImplementation.UD_TWO_SIDED) {
                assertThat(result.outOfOrder()[node])
                        .as("out-of-order tuples at node %d", node)
                        .isZero();
            }
        }
    }
}
