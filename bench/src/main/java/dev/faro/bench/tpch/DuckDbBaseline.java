package dev.faro.bench.tpch;

import dev.faro.engine.tpch.DuckDbLoader;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The single-process reference: an in-memory DuckDB in this JVM, loaded with the same generated TPC-H rows as the
 * cluster (all of them), using every core of the machine, running the specification's query texts.
 */
final class DuckDbBaseline implements AutoCloseable {

    private final Connection connection;

    private DuckDbBaseline(Connection connection) {
        this.connection = connection;
    }

    static DuckDbBaseline load(double scaleFactor, int threads, Path scratchParent) {
        try {
            Connection connection = DriverManager.getConnection("jdbc:duckdb:");
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET threads TO " + Runtime.getRuntime().availableProcessors());
            }
            try {
                Path scratch = Files.createTempDirectory(Files.createDirectories(scratchParent), "duckdb-load");
                try {
                    DuckDbLoader.load(
                            connection,
                            new TpchGenerator(scaleFactor, 0, 1, Placement.RANDOM, threads).generateAll(table -> {}),
                            scratch);
                } finally {
                    Files.deleteIfExists(scratch);
                }
                return new DuckDbBaseline(connection);
            } catch (SQLException | IOException | RuntimeException e) {
                connection.close();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB could not load the TPC-H tables: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory under " + scratchParent, e);
        }
    }

    /** One timed run: the elapsed nanoseconds (reading every value of every row included) and the row count. */
    record Run(long nanos, int rows) {}

    /** Runs TPC-H query {@code number} and reads every row. */
    Run run(int number) {
        long start = System.nanoTime();
        int rows = 0;
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(DuckDbLoader.queryText(number))) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                for (int c = 1; c <= columns; c++) {
                    result.getObject(c);
                }
                rows++;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB failed on Q" + number + ": " + e.getMessage(), e);
        }
        return new Run(System.nanoTime() - start, rows);
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot close DuckDB: " + e.getMessage(), e);
        }
    }
}
