package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.plan.PlanJson;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.tpcc.TpccGenerator;
import dev.faro.engine.tpcc.TpccQueries;
import dev.faro.engine.vector.Table;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DAIS16's analytical queries (Listing 1.1) over a generated TPC-C database (one warehouse: the specification's
 * cardinalities, 300,000 order lines) return exactly DuckDB's answer over the same rows: on one node, and on two
 * nodes with the exchanges over the DAIS16 middleware (fabric) and over its NIO baseline, the two transports the
 * paper's Fig. 5 compares. The generator's tables have the specification's sizes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpccQueryTest {

    private static final int WAREHOUSES = 1;
    private static final long SEED = 20_16;
    private static final int THREADS = 2;

    private final Path shmDirectory = createShmDirectory();
    private DuckDbOracle oracle;
    private InJvmNodes single;
    private InJvmNodes twoNodes;

    @BeforeAll
    void generate() throws Exception {
        List<Table> whole = new TpccGenerator(WAREHOUSES, SEED, 0, 1).generateAll();
        oracle = new DuckDbOracle(whole);
        single = new InJvmNodes(List.of(Catalog.of(whole)), shmDirectory, THREADS);
        List<Catalog> catalogs = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            int self = node;
            catalogs.add(Catalog.of(whole.stream()
                    .map(table -> TpccGenerator.place(table, SEED, self, 2))
                    .toList()));
        }
        twoNodes = new InJvmNodes(catalogs, shmDirectory, THREADS);
    }

    @Test
    void tablesHaveTheSpecificationsCardinalities() throws Exception {
        assertThat(count("warehouse")).isEqualTo(WAREHOUSES);
        assertThat(count("district")).isEqualTo(10L * WAREHOUSES);
        assertThat(count("customer")).isEqualTo(30_000L * WAREHOUSES);
        assertThat(count("history")).isEqualTo(30_000L * WAREHOUSES);
        assertThat(count("orders")).isEqualTo(30_000L * WAREHOUSES);
        assertThat(count("new_order")).isEqualTo(9_000L * WAREHOUSES);
        assertThat(count("stock")).isEqualTo(100_000L * WAREHOUSES);
        assertThat(count("item")).isEqualTo(100_000L);
        assertThat(count("order_line")).isBetween(280_000L * WAREHOUSES, 320_000L * WAREHOUSES);
        assertThat(count("order_line"))
                .as("one line per o_ol_cnt")
                .isEqualTo(((Number) oracle.query("select sum(o_ol_cnt) from orders")
                                .getFirst()
                                .getFirst())
                        .longValue());
    }

    @Test
    void twoNodesHoldEveryRowOnceAndPlaceAgreesWithTheGenerator() {
        List<Table> whole = new TpccGenerator(WAREHOUSES, SEED, 0, 1).generateAll();
        List<List<Table>> generated = List.of(
                new TpccGenerator(WAREHOUSES, SEED, 0, 2).generateAll(),
                new TpccGenerator(WAREHOUSES, SEED, 1, 2).generateAll());
        for (int t = 0; t < whole.size(); t++) {
            long sum = 0;
            for (int node = 0; node < 2; node++) {
                Table mine = generated.get(node).get(t);
                assertThat(TpccGenerator.place(whole.get(t), SEED, node, 2).rowCount())
                        .as("%s at node %d", mine.name(), node)
                        .isEqualTo(mine.rowCount());
                sum += mine.rowCount();
            }
            assertThat(sum)
                    .as("%s rows over two nodes", whole.get(t).name())
                    .isEqualTo(whole.get(t).rowCount());
        }
        assertThat(generated.get(0).get(6).rowCount())
                .as("order lines at node 0")
                .isPositive();
        assertThat(generated.get(1).get(6).rowCount())
                .as("order lines at node 1")
                .isPositive();
    }

    @ParameterizedTest(name = "Q{0}")
    @ValueSource(ints = {1, 2, 3})
    void everyQueryMatchesDuckDbOnOneNodeAndOverBothMiddlewares(int query) throws Exception {
        List<List<Object>> expected = oracle.query(TpccQueries.sql(query));
        assertThat(expected).as("DuckDB's answer to Q%d is not empty", query).isNotEmpty();
        PlanNode plan = PlanJson.fromJson(PlanJson.toJson(TpccQueries.plan(query)));
        assertRows(query, "one node", single.run(plan, "DAIS16"), expected);
        for (String transport : List.of("DAIS16", "DAIS16/NIO")) {
            assertRows(query, transport, twoNodes.run(plan, transport), expected);
        }
    }

    private static void assertRows(int query, String where, QueryResult result, List<List<Object>> expected) {
        List<List<Object>> actual = TpchQueryTest.normalize(result);
        assertThat(actual).as("Q%d rows (%s)", query, where).hasSameSizeAs(expected);
        for (int row = 0; row < expected.size(); row++) {
            List<Object> want = expected.get(row);
            List<Object> got = actual.get(row);
            assertThat(got).as("Q%d row %d columns (%s)", query, row, where).hasSameSizeAs(want);
            for (int c = 0; c < want.size(); c++) {
                String at = "Q" + query + " row " + row + " column " + c + " (" + where + "): " + got + " vs DuckDB "
                        + want;
                Object value = got.get(c);
                if (want.get(c) instanceof BigDecimal decimal) {
                    assertThat((BigDecimal) value).as(at).isEqualByComparingTo(decimal);
                } else if (want.get(c) instanceof Double d) {
                    assertThat(((Number) value).doubleValue())
                            .as(at)
                            .isCloseTo(d, org.assertj.core.data.Percentage.withPercentage(1e-7));
                } else if (want.get(c) instanceof Number number) {
                    assertThat(((Number) value).longValue()).as(at).isEqualTo(number.longValue());
                } else {
                    assertThat(value).as(at).isEqualTo(want.get(c));
                }
            }
        }
    }

    private long count(String table) throws Exception {
        return ((Number)
                        oracle.query("select count(*) from " + table).getFirst().getFirst())
                .longValue();
    }

    @AfterAll
    void close() throws Exception {
        single.close();
        twoNodes.close();
        oracle.close();
        try (Stream<Path> files = Files.walk(shmDirectory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    private static Path createShmDirectory() {
        try {
            return Files.createTempDirectory(Path.of("/dev/shm"), "faro-tpcc-test");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
