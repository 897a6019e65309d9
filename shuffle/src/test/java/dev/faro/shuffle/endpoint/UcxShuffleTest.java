package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The correctness matrix of the six RC designs (SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR) on the
 * {@code ucx} fabric, all nodes in this JVM over UCX shared memory ({@code ucx.tls=sm,self}): every RC design x
 * repartition x {2, 3 nodes} x {1, 2 threads}, plus multicast (3 nodes, 2 threads) and broadcast (3 nodes, 1 thread),
 * each receiving node checking the count, an order-independent checksum and, with one receiving thread and disjoint
 * groups, RC order. (The full pattern cross product runs on {@code shm} in {@link InJvmShuffleTest}; here the point
 * is the transport, and the suite's time budget is small.) The two UD designs are
 * refused by the provider at setup, naming the six above. Needs libucx: without it the class is skipped with one loud
 * line, or fails under {@code FARO_REQUIRE=ucx} (CI installs libucx0 and sets it).
 */
@Requires(Requirement.UCX)
class UcxShuffleTest {

    private static final int TUPLES_PER_THREAD = 10_000;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (EndpointDesign design : EndpointDesign.values()) {
            if (design.implementation() == EndpointImplementation.UD_TWO_SIDED) {
                continue;
            }
            for (int nodes : new int[] {2, 3}) {
                for (int threads : new int[] {1, 2}) {
                    cases.add(Arguments.of(design, "repartition", nodes, threads));
                }
            }
            // the group patterns at the largest shape only: the transport is the same, the test time is not
            cases.add(Arguments.of(design, "multicast", 3, 2));
            cases.add(Arguments.of(design, "broadcast", 3, 1));
        }
        return cases.stream();
    }

    private static FabricConfig fabricConfig(int node) {
        return FabricConfig.of("ucx", "node-" + node).withOption("ucx.tls", "sm,self");
    }

    @ParameterizedTest(name = "{0} {1} nodes={2} threads={3}")
    @MethodSource("cases")
    void rcDesignsDeliverEveryTupleExactlyOnceOnUcx(EndpointDesign design, String pattern, int nodes, int threads)
            throws Exception {
        EndpointConfig config = EndpointConfig.defaults(design, threads)
                .withBufferBytes(1024)
                .withBuffersPerPeer(4)
                .withStallTimeout(Duration.ofSeconds(20));
        boolean ordered = threads == 1 && !pattern.equals("multicast");
        InJvmShuffle.Result result = InJvmShuffle.run(
                UcxShuffleTest::fabricConfig,
                config,
                InJvmShuffleTest.groups(pattern, nodes),
                TUPLES_PER_THREAD,
                ordered);
        for (int node = 0; node < nodes; node++) {
            assertThat(result.count()[node])
                    .as("tuples received by node %d", node)
                    .isEqualTo(result.expectedCount()[node]);
            assertThat(result.sum()[node]).as("checksum at node %d", node).isEqualTo(result.expectedSum()[node]);
            if (ordered) {
                assertThat(result.outOfOrder()[node])
                        .as("out-of-order tuples at node %d", node)
                        .isZero();
            }
        }
    }

    @Test
    void udQueuePairsAreRefusedNamingTheUdFreeDesigns() {
        try (var fabric = Fabrics.open(fabricConfig(0))) {
            var queue = fabric.createCompletionQueue(8);
            FaroException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                    FaroException.class,
                    () -> fabric.createUdQueuePair(dev.faro.fabric.QueuePairConfig.of(queue, 4, 4)));
            assertThat(refused).isNotNull();
            assertThat(refused.category()).isEqualTo(FaroException.Category.NOT_SUPPORTED);
            for (EndpointDesign design : EndpointDesign.values()) {
                if (design.implementation() != EndpointImplementation.UD_TWO_SIDED) {
                    assertThat(refused.getMessage()).contains(design.paperName());
                }
            }
        }
    }
}
