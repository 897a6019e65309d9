package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.plan.PlanJson;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Table;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every implemented TPC-H query at SF 0.01 and 0.1 on 1, 2 and 3 nodes (one JVM, shm fabric, TODS19's random
 * placement) returns exactly DuckDB's answer over the same generated rows: decimals compared exactly, doubles to 1e-9
 * relative. The plans travel through their JSON form first, as they do to worker processes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchQueryTest {

    private static final int THREADS = 2;

    /** Shared by every case (the clusters live across test methods), removed after the class. */
    private final Path shmDirectory = createShmDirectory();

    private final Map<Double, DuckDbOracle> oracles = new HashMap<>();
    private final Map<String, InJvmNodes> clusters = new HashMap<>();

    Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (double sf : new double[] {0.01, 0.1}) {
            for (int nodes = 1; nodes <= 3; nodes++) {
                for (int query : TpchQueries.implemented()) {
                    cases.add(Arguments.of(sf, nodes, query));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "SF {0}, {1} node(s), Q{2}")
    @MethodSource("cases")
    void matchesDuckDb(double sf, int nodes, int query) throws Exception {
        assertMatches(sf, nodes, query, EndpointDesign.MESQ_SR.name(), Placement.RANDOM);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EndpointDesign.class)
    void everyDesignAnswersQ10(EndpointDesign design) throws Exception {
        assertMatches(0.01, 2, 10, design.name(), Placement.RANDOM);
    }

    /**
     * Every transport behind the exchange SPI on this test's class path: the eight designs, the TCP baseline, and
     * those of the modules this one depends on for tests.
     */
    Stream<Arguments> transports() {
        List<Arguments> cases = new ArrayList<>();
        for (int nodes = 2; nodes <= 3; nodes++) {
            for (String transport : ExchangeTransports.names()) {
                cases.add(Arguments.of(nodes, transport));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "SF 0.01, {0} nodes, every query over {1}")
    @MethodSource("transports")
    void everyQueryOverEveryTransportMatchesDuckDb(int nodes, String transport) throws Exception {
        for (int query : TpchQueries.implemented()) {
            assertMatches(0.01, nodes, query, transport, Placement.RANDOM);
        }
    }

    /**
     * Under first-key placement the plans join ORDERS with LINEITEM and PART with PARTSUPP where they lie and
     * aggregate on those keys in one phase; the placement-agnostic plans must still be right on that data too.
     */
    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3})
    void firstKeyPlacementGivesTheSameAnswers(int nodes) throws Exception {
        for (int query : TpchQueries.implemented()) {
            assertMatches(
                    0.01,
                    nodes,
                    query,
                    EndpointDesign.MEMQ_SR.name(),
                    Placement.FIRST_KEY,
                    Distribution.hybrid(Placement.FIRST_KEY, nodes));
        }
        assertMatches(0.01, 3, 21, EndpointDesign.MEMQ_SR.name(), Placement.FIRST_KEY, Distribution.DEFAULT);
    }

    /** So many parallel units that the broadcast rule repartitions both sides of every join it governs (the largest ratio, Q18's, is about 43,750). */
    @Test
    void repartitionedJoinsGiveTheSameAnswers() throws Exception {
        Distribution manyUnits = new Distribution(Placement.RANDOM, 100_000);
        for (int query : TpchQueries.implemented()) {
            assertMatches(0.01, 2, query, EndpointDesign.MESQ_SR.name(), Placement.RANDOM, manyUnits);
        }
    }

    /**
     * The designs keep their endpoints from one exchange and query to the next (the node's endpoint sets): a second
     * round of the same queries opens no new endpoint set, and still matches DuckDB.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MESQ_SR", "SEMQ_RD"})
    void aSecondRoundOfQueriesOpensNoNewEndpoints(String design) throws Exception {
        int[] queries = {2, 11, 18};
        for (int query : queries) {
            assertMatches(0.01, 2, query, design, Placement.RANDOM);
        }
        InJvmNodes cluster = cluster(0.01, 2, Placement.RANDOM);
        long opened = cluster.endpointSets(0).opened();
        long reused = cluster.endpointSets(0).reused();
        for (int query : queries) {
            assertMatches(0.01, 2, query, design, Placement.RANDOM);
        }
        assertThat(cluster.endpointSets(0).opened())
                .as("sets opened in the second round")
                .isEqualTo(opened);
        assertThat(cluster.endpointSets(0).reused())
                .as("sets reused in the second round")
                .isGreaterThan(reused);
        assertThat(cluster.endpointSets(1).opened()).isEqualTo(opened);
    }

    @Test
    void unknownQueryNamesTheImplementedOnes() {
        assertThatThrownBy(() -> TpchQueries.plan(99)).hasMessageContaining("implemented: [");
    }

    private void assertMatches(double sf, int nodes, int query, String transport, Placement placement)
            throws Exception {
        assertMatches(sf, nodes, query, transport, placement, Distribution.DEFAULT);
    }

    private void assertMatches(
            double sf, int nodes, int query, String transport, Placement placement, Distribution distribution)
            throws Exception {
        PlanNode plan = PlanJson.fromJson(PlanJson.toJson(TpchQueries.plan(query, distribution)));
        QueryResult result = cluster(sf, nodes, placement).run(plan, transport);
        List<List<Object>> expected = oracle(sf).query(DuckDbOracle.queryText(query));
        List<List<Object>> actual = normalize(result);
        assertThat(expected)
                .as("DuckDB's answer to Q" + query + " is not empty")
                .isNotEmpty();
        assertThat(actual)
                .as("Q%d at SF %s on %d nodes (%s)", query, sf, nodes, transport)
                .hasSameSizeAs(expected);
        for (int row = 0; row < expected.size(); row++) {
            assertRow(query, row, actual.get(row), expected.get(row));
        }
    }

    private static void assertRow(int query, int row, List<Object> actual, List<Object> expected) {
        assertThat(actual).as("Q%d row %d columns", query, row).hasSameSizeAs(expected);
        for (int c = 0; c < expected.size(); c++) {
            Object want = expected.get(c);
            Object got = actual.get(c);
            String where = "Q" + query + " row " + row + " column " + c + ": " + actual + " vs DuckDB " + expected;
            if (want instanceof BigDecimal decimal) {
                assertThat((BigDecimal) got).as(where).isEqualByComparingTo(decimal);
            } else if (want instanceof Double d) {
                assertThat((Double) got).as(where).isCloseTo(d, org.assertj.core.data.Percentage.withPercentage(1e-7));
            } else if (want instanceof Number number && got instanceof Number value) {
                assertThat(value.longValue()).as(where).isEqualTo(number.longValue());
            } else {
                assertThat(got).as(where).isEqualTo(want);
            }
        }
    }

    /** Faro's raw values as JDBC would show them: decimals as BigDecimal, dates as LocalDate. */
    static List<List<Object>> normalize(QueryResult result) {
        List<Column> columns = result.schema().columns();
        List<List<Object>> rows = new ArrayList<>();
        for (List<Object> raw : result.rows()) {
            List<Object> row = new ArrayList<>(raw.size());
            for (int c = 0; c < raw.size(); c++) {
                row.add(normalize(columns.get(c).type(), raw.get(c)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static Object normalize(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case DECIMAL -> BigDecimal.valueOf((Long) value, type.scale());
            case DATE -> LocalDate.ofEpochDay((Integer) value);
            default -> value;
        };
    }

    private DuckDbOracle oracle(double sf) throws Exception {
        DuckDbOracle oracle = oracles.get(sf);
        if (oracle == null) {
            oracle = new DuckDbOracle(new TpchGenerator(sf, 0, 1, Placement.RANDOM, THREADS).generateAll(t -> {}));
            oracles.put(sf, oracle);
        }
        return oracle;
    }

    private InJvmNodes cluster(double sf, int nodes, Placement placement) {
        return clusters.computeIfAbsent(sf + "/" + nodes + "/" + placement, key -> {
            List<Catalog> catalogs = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                List<Table> tables = new TpchGenerator(sf, node, nodes, placement, THREADS).generateAll(t -> {});
                catalogs.add(Catalog.of(tables));
            }
            return new InJvmNodes(catalogs, shmDirectory, THREADS);
        });
    }

    @AfterAll
    void close() throws Exception {
        for (InJvmNodes cluster : clusters.values()) {
            cluster.close();
        }
        for (DuckDbOracle oracle : oracles.values()) {
            oracle.close();
        }
        try (Stream<Path> files = Files.walk(shmDirectory)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    private static Path createShmDirectory() {
        try {
            Path shm = Path.of("/dev/shm");
            return Files.isDirectory(shm)
                    ? Files.createTempDirectory(shm, "tpch-test-faro") // not faro-*: a faro start sweeps those
                    : Files.createTempDirectory("tpch-test-faro");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
