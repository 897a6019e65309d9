package dev.faro.engine.tpch;

import dev.faro.shuffle.operator.Partitioner;

/**
 * Where a generated TPC-H tuple lives. NATION and REGION are always replicated to every node.
 *
 * <ul>
 *   <li>{@link #RANDOM}: TODS19 §7.2's "every tuple of every table goes to a random node", at the granularity of
 *       generator blocks (up to 1,024 per table, so 1/1,024 of a table at SF 1, drawn independently per table):
 *       no two tables are co-partitioned, every join shuffles, and each node generates only its own blocks.
 *   <li>{@link #FIRST_KEY}: every table hash-partitioned on its first key column (VLDB16): ORDERS and LINEITEM are
 *       co-partitioned on the order key, PART and PARTSUPP on the part key.
 * </ul>
 */
public enum Placement {
    RANDOM,
    FIRST_KEY;

    /** The node of a tuple whose first column is {@code firstKey} under {@link #FIRST_KEY}. */
    static int firstKeyNode(long firstKey, int nodes) {
        return (int) Long.remainderUnsigned(Partitioner.mix(firstKey), nodes);
    }

    /** The node of block {@code block} of the table with ordinal {@code tableOrdinal} under {@link #RANDOM}. */
    static int blockNode(int tableOrdinal, int block, int nodes) {
        return (int) Long.remainderUnsigned(
                Partitioner.mix(((long) tableOrdinal << 32) + block + 0x9E3779B97F4A7C15L), nodes);
    }

    /** The option spelling: {@code random} or {@code first-key}. */
    public String optionName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** Parses {@link #optionName()} (case-insensitive); the error names the choices. */
    public static Placement parse(String text) {
        for (Placement placement : values()) {
            if (placement.optionName().equalsIgnoreCase(text)
                    || placement.name().equalsIgnoreCase(text)) {
                return placement;
            }
        }
        throw new IllegalArgumentException("unknown placement '" + text + "'; choose random or first-key");
    }
}
