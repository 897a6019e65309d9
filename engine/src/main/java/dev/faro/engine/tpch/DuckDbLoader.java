package dev.faro.engine.tpch;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Table;
import dev.faro.engine.vector.Vector;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.StringJoiner;

/**
 * Loads Faro's generated TPC-H tables, row for row, into a DuckDB connection (DuckDB JDBC must be on the class path:
 * the dependency is optional). Used as the independent oracle of the TPC-H tests and as the single-process baseline
 * of {@code faro bench tpch}. Bulk path: each table is written as a CSV file into a scratch directory and read with
 * DuckDB's parallel {@code COPY}, far faster than appending row by row through JDBC. Decimals keep their exact value
 * ({@code DECIMAL(15,2)}), dates are ISO dates. Coordination code.
 */
public final class DuckDbLoader {

    private DuckDbLoader() {}

    /** Creates and fills one DuckDB table per Faro table; the CSV files go to {@code scratch} and are deleted. */
    public static void load(Connection connection, List<Table> tables, Path scratch) throws SQLException {
        for (Table table : tables) {
            Path csv = scratch.resolve(table.name() + ".csv");
            try {
                writeCsv(table, csv);
                try (Statement statement = connection.createStatement()) {
                    statement.execute(createTable(table));
                    statement.execute("COPY " + table.name() + " FROM '" + csv.toAbsolutePath()
                            + "' (FORMAT csv, DELIMITER '|', QUOTE '\"', ESCAPE '\"', HEADER false)");
                }
            } finally {
                try {
                    Files.deleteIfExists(csv);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + csv, e);
                }
            }
        }
    }

    /** The text of TPC-H query {@code number} as shipped with io.trino.tpch (standard SQL that DuckDB runs). */
    public static String queryText(int number) {
        String resource = "io/trino/tpch/queries/q" + number + ".sql";
        try (InputStream in = DuckDbLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no query text " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    static String createTable(Table table) {
        StringJoiner columns = new StringJoiner(", ", "CREATE TABLE " + table.name() + " (", ")");
        for (Column column : table.schema().columns()) {
            columns.add(column.name() + " " + sqlType(column));
        }
        return columns.toString();
    }

    private static void writeCsv(Table table, Path file) {
        List<Column> columns = table.schema().columns();
        StringBuilder line = new StringBuilder(256);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Batch batch : table.batches()) {
                for (int row = 0; row < batch.rowCount(); row++) {
                    line.setLength(0);
                    for (int c = 0; c < columns.size(); c++) {
                        if (c > 0) {
                            line.append('|');
                        }
                        appendValue(line, columns.get(c), batch.column(c), row);
                    }
                    line.append('\n');
                    out.append(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void appendValue(StringBuilder line, Column column, Vector vector, int row) {
        if (vector.isNull(row)) {
            return; // an empty unquoted field is NULL
        }
        switch (column.type().kind()) {
            case BIGINT, INTEGER ->
                line.append(vector instanceof LongVector longs ? longs.get(row) : ((IntVector) vector).get(row));
            case DECIMAL ->
                line.append(BigDecimal.valueOf(
                                ((LongVector) vector).get(row), column.type().scale())
                        .toPlainString());
            case DATE -> line.append(LocalDate.ofEpochDay(((IntVector) vector).get(row)));
            case VARCHAR ->
                line.append('"')
                        .append(((StringVector) vector).get(row).replace("\"", "\"\""))
                        .append('"');
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
}
