package dev.faro.engine.vector;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** An ordered list of uniquely named columns. */
public record Schema(List<Column> columns) {

    public Schema {
        Objects.requireNonNull(columns, "columns is null");
        columns = List.copyOf(columns);
        Set<String> names = new HashSet<>();
        for (Column column : columns) {
            if (!names.add(column.name())) {
                throw new IllegalArgumentException("duplicate column name: name=" + column.name() + " in " + columns);
            }
        }
    }

    public static Schema of(Column... columns) {
        return new Schema(List.of(columns));
    }

    public int size() {
        return columns.size();
    }

    public Column column(int index) {
        return columns.get(index);
    }

    public DataType type(int index) {
        return columns.get(index).type();
    }

    /** The column names, in order. */
    public List<String> names() {
        List<String> names = new ArrayList<>(columns.size());
        for (Column column : columns) {
            names.add(column.name());
        }
        return names;
    }

    /** Whether a column of this name exists. */
    public boolean contains(String name) {
        for (Column column : columns) {
            if (column.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The index of the named column; throws IllegalArgumentException naming the known columns when absent. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown column: name=" + name + ", known: " + names());
    }

    /** The named column; throws IllegalArgumentException naming the known columns when absent. */
    public Column column(String name) {
        return columns.get(indexOf(name));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                text.append(", ");
            }
            text.append(columns.get(i).name()).append(' ').append(columns.get(i).type());
        }
        return text.append(')').toString();
    }
}
