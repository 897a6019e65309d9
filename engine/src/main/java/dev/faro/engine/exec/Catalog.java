package dev.faro.engine.exec;

import dev.faro.engine.vector.Table;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/** A node's tables by name. Thread-safe: tables may be put while queries read others. */
public final class Catalog {

    private final Map<String, Table> tables = new ConcurrentHashMap<>();

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

    /** Adds or replaces the table of the same name. */
    public void put(Table table) {
        Objects.requireNonNull(table, "table is null");
        tables.put(table.name(), table);
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

    public boolean contains(String name) {
        return tables.containsKey(name);
    }

    /** The table names, sorted. */
    public List<String> names() {
        return List.copyOf(new TreeSet<>(tables.keySet()));
    }
}
