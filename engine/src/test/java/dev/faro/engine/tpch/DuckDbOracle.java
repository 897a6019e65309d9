package dev.faro.engine.tpch;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Table;
import dev.faro.engine.vector.Vector;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * The independent oracle: an in-memory DuckDB loaded with exactly the tables Faro generated (all rows, one node), which
 * runs the TPC-H query texts shipped with {@code io.trino.tpch} ({@code io/trino/tpch/queries/qN.sql}).
 */
final class DuckDbOracle implements AutoCloseable {

    private final DuckDBConnection connection;

    DuckDbOracle(List<Table> tables) throws SQLException {
        Connection plain = DriverManager.getConnection("jdbc:duckdb:");
        this.connection = plain.unwrap(DuckDBConnection.class);
        for (Table table : tables) {
            load(table);
        }
    }

    /** The query text of TPC-H query {@code number} as shipped with io.trino.tpch. */
    static String queryText(int number) {
        String resource = "io/trino/tpch/queries/q" + number + ".sql";
        try (InputStream in = DuckDbOracle.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no query text " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }

    /** Runs {@code sql}; every row as a list of JDBC objects (BigDecimal for decimals, LocalDate for dates). */
    List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
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

    private void load(Table table) throws SQLException {
        StringJoiner columns = new StringJoiner(", ", "CREATE TABLE " + table.name() + " (", ")");
        for (Column column : table.schema().columns()) {
            columns.add(column.name() + " " + sqlType(column));
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(columns.toString());
        }
        try (DuckDBAppender appender = connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, table.name())) {
            for (Batch batch : table.batches()) {
                for (int row = 0; row < batch.rowCount(); row++) {
                    appender.beginRow();
                    for (int c = 0; c < table.schema().columns().size(); c++) {
                        append(appender, table.schema().columns().get(c), batch.column(c), row);
                    }
                    appender.endRow();
                }
            }
        }
    }

    private static void append(DuckDBAppender appender, Column column, Vector vector, int row) throws SQLException {
        switch (column.type().kind()) {
            case BIGINT -> appender.append(((LongVector) vector).get(row));
            case DECIMAL -> appender.append(BigDecimal.valueOf(((LongVector) vector).get(row), column.type().scale()));
            case INTEGER -> appender.append(((IntVector) vector).get(row));
            case DATE -> appender.append(LocalDate.ofEpochDay(((IntVector) vector).get(row)));
            case VARCHAR -> appender.append(((StringVector) vector).get(row));
            default -> throw new IllegalArgumentException("no TPC-H column has type " + column.type());
        }
    }

    private static String sqlType(Column column) {
        return switch (column.type().kind()) {
            case BIGINT -> "BIGINT";
            case INTEGER -> "INTEGER";
            case DATE -> "DATE";
            case DECIMAL -> "DECIMAL(15," + column.type().scale() + ")";
            case VARCHAR -> "VARCHAR(" + column.type().maxLength() + ")";
            default -> throw new IllegalArgumentException("no TPC-H column has type " + column.type());
        };
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
