package dev.faro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.engine.tpch.DuckDbLoader;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchGenerator;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.fabric.netns.NetworkNamespaces;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro tpch --listen} across "hosts": two network namespaces on one bridge ({@link NetworkNamespaces#bridged}),
 * the coordinator a {@code faro tpch --listen ROOT:0 --workers 2 --provider net} process in the root namespace, one
 * {@code faro worker --join ROOT:PORT} process per namespace (as a user starts them on each host), the secret from a
 * file. Checks that the coordinator reports the workers as they join, that all 22 queries at SF 0.01 give DuckDB's
 * answers over the same rows (decimals exactly, doubles to 1e-7 %), and that every process ends cleanly. Needs root and
 * {@code ip} ({@code @Requires(NETNS)}: skipped with one line elsewhere, a failure under {@code FARO_REQUIRE=netns}).
 */
@Requires(Requirement.NETNS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MultiHostTpchIT {

    private static final int HOSTS = 2;
    private static final double SF = 0.01;

    @TempDir
    Path directory;

    @Test
    void tpchWithWorkersInOtherNamespacesAnswersLikeDuckDb() throws Exception {
        Path secretFile = directory.resolve("cluster-secret");
        ClusterSecret.generate().writeFile(secretFile);
        File answers = directory.resolve("answers.json").toFile();
        List<FaroProcess> workers = new ArrayList<>();
        NetworkNamespaces network = NetworkNamespaces.bridged(HOSTS);
        try (FaroProcess coordinator = FaroProcess.start(
                answers,
                List.of(),
                "512m",
                "tpch",
                "--listen",
                network.rootAddress() + ":0",
                "--workers",
                Integer.toString(HOSTS),
                "--provider",
                "net",
                "--sf",
                Double.toString(SF),
                "--queries",
                "all",
                "--format",
                "json",
                "--secret-file",
                secretFile.toString())) {
            coordinator.awaitLine(line -> line.startsWith("listening on "), 120);
            String join = coordinator.stderr().stream()
                    .filter(line -> line.startsWith("listening on "))
                    .findFirst()
                    .orElseThrow()
                    .split(" ")[2];
            assertThat(join).startsWith(network.rootAddress() + ":");
            String heap = TpchSession.workerHeapMiB(HOSTS, SF) + "m";
            for (int host = 0; host < HOSTS; host++) {
                workers.add(FaroProcess.start(
                        directory.resolve("worker-" + host + ".out").toFile(),
                        NetworkNamespaces.inside(network.host(host)),
                        heap,
                        "worker",
                        "--join",
                        join,
                        "--secret-file",
                        secretFile.toString()));
            }

            int exit = coordinator.exit(240);
            List<String> progress = coordinator.stderr();
            progress.forEach(line -> System.out.println("[multi-host] " + line));
            assertThat(exit)
                    .as("faro tpch's exit code; it printed %s", progress)
                    .isZero();
            assertThat(progress)
                    .contains("waiting for workers: 0 of 2 joined")
                    .anyMatch(line -> line.startsWith("waiting for workers: 2 of 2 joined (node "));
            for (FaroProcess worker : workers) {
                assertThat(progress)
                        .as(
                                "a progress line names worker pid %d",
                                worker.process().pid())
                        .anyMatch(line -> line.startsWith("waiting for workers:")
                                && line.contains(", pid " + worker.process().pid()));
                assertThat(worker.exit(60))
                        .as("a worker's exit code after the run; it printed %s", worker.stderr())
                        .isZero();
            }
            for (int host = 0; host < HOSTS; host++) {
                assertThat(Files.readString(directory.resolve("worker-" + host + ".out")))
                        .contains("faro worker: joined " + join + " as node ");
            }
            assertMatchesDuckDb(new ObjectMapper()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .readTree(answers));
        } finally {
            for (FaroProcess worker : workers) {
                worker.close(); // a namespace lives on while a process is inside
            }
            network.close();
        }
    }

    private static void assertMatchesDuckDb(JsonNode document) throws Exception {
        assertThat(document.get("nodes").asInt()).isEqualTo(HOSTS);
        assertThat(document.get("queries")).hasSize(TpchQueries.implemented().size());
        Path scratch = Files.createTempDirectory("faro-multi-host-duckdb");
        try (Connection duckDb = DriverManager.getConnection("jdbc:duckdb:")) {
            DuckDbLoader.load(
                    duckDb, new TpchGenerator(SF, 0, 1, Placement.RANDOM, 2).generateAll(table -> {}), scratch);
            for (JsonNode query : document.get("queries")) {
                int number = query.get("query").asInt();
                List<List<Object>> expected = rows(duckDb, DuckDbLoader.queryText(number));
                JsonNode actual = query.get("rows");
                assertThat(expected).as("DuckDB's answer to Q%d", number).isNotEmpty();
                assertThat(actual).as("Q%d's rows", number).hasSize(expected.size());
                for (int row = 0; row < expected.size(); row++) {
                    assertThat(actual.get(row))
                            .as("Q%d row %d's columns", number, row)
                            .hasSize(expected.get(row).size());
                    for (int column = 0; column < expected.get(row).size(); column++) {
                        assertSameValue(
                                actual.get(row).get(column),
                                expected.get(row).get(column),
                                "Q" + number + " row " + row + " column " + column + ": " + actual.get(row)
                                        + " vs DuckDB " + expected.get(row));
                    }
                }
            }
            System.out.printf("[multi-host] Q1-Q22 at SF %s over %d namespaces: DuckDB's answers%n", SF, HOSTS);
        } finally {
            Files.deleteIfExists(scratch);
        }
    }

    /** Every row of {@code sql} as JDBC objects (dates as ISO text, as faro's JSON writes them). */
    private static List<List<Object>> rows(Connection duckDb, String sql) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duckDb.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    Object value = result.getObject(c);
                    row.add(
                            value instanceof java.sql.Date date
                                    ? date.toLocalDate().toString()
                                    : value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** A JSON value of faro's answer against DuckDB's: decimals exact, doubles to 1e-7 %, integers, text. */
    private static void assertSameValue(JsonNode got, Object want, String where) {
        switch (want) {
            case null -> assertThat(got.isNull()).as(where).isTrue();
            case BigDecimal decimal -> assertThat(got.decimalValue()).as(where).isEqualByComparingTo(decimal);
            case Double d -> assertThat(got.asDouble()).as(where).isCloseTo(d, Percentage.withPercentage(1e-7));
            case Number number -> assertThat(got.asLong()).as(where).isEqualTo(number.longValue());
            default -> assertThat(got.asText()).as(where).isEqualTo(want.toString());
        }
    }
}
