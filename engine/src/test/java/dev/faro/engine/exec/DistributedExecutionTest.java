package dev.faro.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.expression.Expressions;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.vector.Table;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * N nodes in one JVM over shm give the same rows as one node, for plans with repartition, broadcast and gather
 * exchanges; and one node's failure makes every node's execute throw, without a hang.
 */
class DistributedExecutionTest {

    private static final List<Table> TABLES = TestTables.tpchLike(300, 1000, 42);
    private static final Map<String, PlanNode> PLANS = Map.of(
            "q3",
            SamplePlans.q3(),
            "q4",
            SamplePlans.q4(),
            "q10",
            SamplePlans.q10(),
            "ordersPerCustomer",
            SamplePlans.ordersPerCustomer());
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-engine-test");
    }

    @AfterAll
    static void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private static List<List<Object>> local(PlanNode plan) {
        return QueryExecutor.execute(plan, ExecutionContext.local(Catalog.of(TABLES), 2))
                .rows();
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {1, 2, 3})
    void distributedRowsEqualSingleNodeRows(int nodes) throws Exception {
        List<List<Table>> perNode = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            perNode.add(TestTables.partition(TABLES, node, nodes));
        }
        for (Map.Entry<String, PlanNode> plan : PLANS.entrySet()) {
            List<List<Object>> expected = local(plan.getValue());
            assertThat(expected).as(plan.getKey()).isNotEmpty();
            List<InJvmCluster.Outcome> outcomes = InJvmCluster.run(
                    directory,
                    plan.getValue(),
                    perNode,
                    2,
                    EndpointDesign.MEMQ_SR,
                    config -> config.withStallTimeout(Duration.ofSeconds(20)),
                    plan.getKey() + "-" + nodes);
            for (int node = 0; node < nodes; node++) {
                InJvmCluster.Outcome outcome = outcomes.get(node);
                assertThat(outcome.failure())
                        .as(plan.getKey() + " node " + node)
                        .isNull();
                if (node == 0) {
                    assertThat(outcome.result().rows()).as(plan.getKey()).containsExactlyElementsOf(expected);
                } else {
                    assertThat(outcome.result().rows())
                            .as(plan.getKey() + " node " + node)
                            .isEmpty();
                }
                if (nodes > 1) {
                    assertThat(outcome.result().statistics().exchanges()).isNotEmpty();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EndpointDesign.class)
    void everyDesignCarriesRepartitionBroadcastAndGather(EndpointDesign design) throws Exception {
        int nodes = 2;
        List<Table> small = TestTables.tpchLike(60, 200, 3);
        List<List<Table>> perNode =
                List.of(TestTables.partition(small, 0, nodes), TestTables.partition(small, 1, nodes));
        // a one-thread sending pipeline (after a top-N) leaves writers unused: their streams must still end
        PlanNode sortedThenGathered = Plans.scan("orders", TestTables.ORDERS, "o_orderkey", "o_orderpriority")
                .topN(40, Plans.asc("o_orderkey"))
                .gather()
                .topN(40, Plans.asc("o_orderkey"));
        for (PlanNode plan : List.of(SamplePlans.ordersPerCustomer(), SamplePlans.q3(), sortedThenGathered)) {
            List<List<Object>> expected = QueryExecutor.execute(plan, ExecutionContext.local(Catalog.of(small), 2))
                    .rows();
            List<InJvmCluster.Outcome> outcomes = InJvmCluster.run(
                    directory,
                    plan,
                    perNode,
                    2,
                    design,
                    config -> config.withStallTimeout(Duration.ofSeconds(20)),
                    "design-" + design + "-" + Integer.toHexString(plan.hashCode()));
            assertThat(outcomes.get(0).failure()).isNull();
            assertThat(outcomes.get(1).failure()).isNull();
            assertThat(outcomes.get(0).result().rows()).containsExactlyElementsOf(expected);
            long sent = outcomes.get(0).result().statistics().bytesSent()
                    + outcomes.get(1).result().statistics().bytesSent();
            assertThat(sent).isPositive();
            long received = outcomes.get(0).result().statistics().bytesReceived()
                    + outcomes.get(1).result().statistics().bytesReceived();
            assertThat(received).isGreaterThanOrEqualTo(sent);
        }
    }

    /** Three nodes' tables; node 1 holds a row whose revenue overflows a long (see {@link #revenuePlan()}). */
    private static List<List<Table>> poisonedTables() {
        int nodes = 3;
        List<List<Table>> perNode = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            List<Table> tables = new ArrayList<>(TestTables.partition(TABLES, node, nodes));
            if (node == 1) {
                // a price whose revenue overflows a long: the node holding its order fails after the exchanges
                Table lineitem = tables.get(2);
                Table poison = TestTables.table(
                        "lineitem",
                        TestTables.LINEITEM,
                        List.of(TestTables.row(
                                lineitem.batches().getFirst().column(0).getObject(0),
                                new BigDecimal("1.00"),
                                Long.MAX_VALUE / 10,
                                1L,
                                "1995-06-01",
                                "1995-05-01",
                                "1995-06-02",
                                "R")),
                        1);
                List<dev.faro.engine.vector.Batch> batches = new ArrayList<>(lineitem.batches());
                batches.addAll(poison.batches());
                tables.set(2, new Table("lineitem", lineitem.schema(), batches));
            }
            perNode.add(tables);
        }
        return perNode;
    }

    /** Repartitions lineitem, then sums revenue: node 1 fails after the exchange, in its consuming pipeline. */
    private static PlanNode revenuePlan() {
        return Plans.scan("lineitem", TestTables.LINEITEM, "l_orderkey", "l_extendedprice", "l_discount")
                .repartition("l_orderkey")
                .project(Plans.as(
                        Expressions.mul(
                                Expressions.col("l_extendedprice"),
                                Expressions.sub(Expressions.decimal("1.00"), Expressions.col("l_discount"))),
                        "revenue"))
                .distributedAggregate(List.of(), Plans.sum(Expressions.col("revenue"), "revenue"));
    }

    @Test
    void oneNodeFailingMakesEveryNodeThrow() throws Exception {
        assertEveryNodeThrows(InJvmCluster.run(
                directory,
                revenuePlan(),
                poisonedTables(),
                2,
                EndpointDesign.MEMQ_SR,
                config -> config.withStallTimeout(Duration.ofSeconds(3)),
                "failing"));
    }

    /** The same over the zero-sided switch (an exchange transport of another module, on this test class path). */
    @Test
    void oneNodeFailingMakesEveryNodeThrowOverTheZeroSidedSwitch() throws Exception {
        assertEveryNodeThrows(InJvmCluster.run(
                directory, revenuePlan(), poisonedTables(), 2, "zerosided", Duration.ofSeconds(3), "failing-zs"));
    }

    private static void assertEveryNodeThrows(List<InJvmCluster.Outcome> outcomes) {
        for (int node = 0; node < outcomes.size(); node++) {
            assertThat(outcomes.get(node).failure()).as("node " + node).isInstanceOf(QueryExecutionException.class);
        }
        assertThat(outcomes.stream().map(InJvmCluster.Outcome::failure).map(Throwable::getCause))
                .anySatisfy(cause -> assertThat(cause).isInstanceOf(ArithmeticException.class));
    }
}
