package dev.faro.engine.exec;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Table;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** A node's tables by name. Thread-safe: tables may be put while queries read others. */
public final class Catalog {

    private final Map<String, Table> tables = new ConcurrentHashMap<>();
    /**
     * Per table name: the table whose batches were read and, per column, whether one of them holds a NULL ({@link
     * #put} evicts it; the table is kept so that a read racing a put is not taken for the new table's).
     */
    private final Map<String, ColumnNulls> nulls = new ConcurrentHashMap<>();

    private record ColumnNulls(Table table, boolean[] mayHaveNulls) {}

    /** An empty catalog. */
    public Catalog() {}

    /** A catalog holding {@code tables} (names must be unique). */
    public static Catalog of(List<Table> tables) {
        Catalog catalog = new Catalog();
        for (Table table : tables) {
            if (catalog.tables.putIfAbsent(table.name(), table) != null) {
                throw new IllegalArgumentException("duplicate table: name=" + table.name());
            }
        }
        return catalog;
    }

    /** Adds or replaces the table of the same name (and forgets what was read of the replaced one). */
    public void put(Table table) {
        Objects.requireNonNull(table, "table is null");
        tables.put(table.name(), table);
        nulls.remove(table.name());
    }

    /** The named table; throws IllegalArgumentException naming the known tables when absent. */
    public Table get(String name) {
        Table table = tables.get(name);
        if (table == null) {
            throw new IllegalArgumentException(
                    "unknown table: name=" + name + ", known: " + new TreeSet<>(tables.keySet()));
        }
        return table;
    }

    /**
     * Per column of the named table, whether one of its batches may hold a NULL there: read from every batch once per
     * table (plans ask it for each exchange of each query). The caller must not modify the array.
     */
    public boolean[] mayHaveNulls(String name) {
        Table table = get(name);
        ColumnNulls known = nulls.get(name);
        if (known != null && known.table() == table) {
            return known.mayHaveNulls();
        }
        boolean[] columns = new boolean[table.schema().size()];
        for (Batch batch : table.batches()) {
            for (int c = 0; c < columns.length; c++) {
                columns[c] |= batch.column(c).mayHaveNulls();
            }
        }
        nulls.put(name, new ColumnNulls(table, columns));
        return columns;
    }

    public boolean contains(String name) {
        return tables.containsKey(name);
    }

    /** The table names, sorted. */
    public List<String> names() {
        return List.copyOf(new TreeSet<>(tables.keySet()));
    }
}
