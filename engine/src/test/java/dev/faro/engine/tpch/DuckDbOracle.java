package dev.faro.engine.tpch;

import dev.faro.engine.vector.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.duckdb.DuckDBConnection;

/**
 * The independent oracle: an in-memory DuckDB loaded ({@link DuckDbLoader}) with exactly the tables Faro generated (all
 * rows, one node), which runs the TPC-H query texts shipped with {@code io.trino.tpch} ({@code io/trino/tpch/queries/qN.sql}).
 */
final class DuckDbOracle implements AutoCloseable {

    private final DuckDBConnection connection;

    DuckDbOracle(List<Table> tables) throws SQLException {
        this.connection = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("faro-duckdb-oracle");
            DuckDbLoader.load(connection, tables, scratch);
            Files.delete(scratch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the scratch directory " + scratch, e);
        }
    }

    /** The query text of TPC-H query {@code number} as shipped with io.trino.tpch. */
    static String queryText(int number) {
        return DuckDbLoader.queryText(number);
    }

    /** Runs {@code sql}; every row as a list of JDBC objects (BigDecimal for decimals, LocalDate for dates). */
    List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    Object value = result.getObject(c);
                    if (value instanceof java.sql.Date date) {
                        value = date.toLocalDate();
                    }
                    row.add(value);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
