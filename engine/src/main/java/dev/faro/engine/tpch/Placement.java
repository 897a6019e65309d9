package dev.faro.engine.tpch;

import dev.faro.shuffle.operator.Partitioner;

/**
 * Where a generated TPC-H tuple lives. NATION and REGION are always replicated to every node.
 *
 * <ul>
 *   <li>{@link #RANDOM}: every tuple of every other table on a pseudo-random node (TODS19 §7.2: "every tuple of every
 *       table goes to a random node"), so every join shuffles.
 *   <li>{@link #FIRST_KEY}: every table hash-partitioned on its first key column (VLDB16): ORDERS and LINEITEM are
 *       co-partitioned on the order key, PART and PARTSUPP on the part key.
 * </ul>
 */
public enum Placement {
    RANDOM,
    FIRST_KEY;

    /**
     * The node of a tuple: {@code tableOrdinal} is the table's position in {@link TpchTables#ALL}, {@code rowId} a
     * number unique within the table, {@code firstKey} the value of its first column.
     */
    public int node(int tableOrdinal, long rowId, long firstKey, int nodes) {
        if (nodes == 1) {
            return 0;
        }
        long hash = switch (this) {
            case RANDOM -> Partitioner.mix(rowId * 31 + tableOrdinal + 1);
            case FIRST_KEY -> Partitioner.mix(firstKey);
        };
        return (int) Long.remainderUnsigned(hash, nodes);
    }

    /** The option spelling: {@code random} or {@code first-key}. */
    public String optionName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Parses {@link #optionName()} (case-insensitive); the error names the choices. */
    public static Placement parse(String text) {
        for (Placement placement : values()) {
            if (placement.optionName().equalsIgnoreCase(text) || placement.name().equalsIgnoreCase(text)) {
                return placement;
            }
        }
        throw new IllegalArgumentException("unknown placement '" + text + "'; choose random or first-key");
    }
}
