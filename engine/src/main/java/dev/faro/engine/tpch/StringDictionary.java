package dev.faro.engine.tpch;

import java.util.HashMap;
import java.util.Map;

/**
 * The in-memory dictionary of one generated VARCHAR column: equal values share one {@code String} instance while the
 * column has at most {@link #MAX_ENTRIES} distinct values (l_returnflag, l_shipmode, o_orderpriority, p_type,
 * c_mktsegment, ...), as a column store keeps a low-cardinality column dictionary-encoded. The engine's string
 * kernels then compare mostly the same few objects (hot in cache, their hash cached, {@code equals} decided by
 * identity) instead of one object per row; the values are unchanged. A column with more distinct values (comments,
 * names) stops being looked up once the dictionary is full and keeps one instance per row. Thread-confined.
 */
final class StringDictionary {

    /** The most distinct values a column may have and still be shared. */
    static final int MAX_ENTRIES = 4096;

    private Map<String, String> entries = new HashMap<>();

    /** The shared instance equal to {@code value} (null stays null); {@code value} itself once the column is wide. */
    String share(String value) {
        Map<String, String> map = entries;
        if (map == null || value == null) {
            return value;
        }
        String shared = map.putIfAbsent(value, value);
        if (shared != null) {
            return shared;
        }
        if (map.size() > MAX_ENTRIES) {
            entries = null; // too many distinct values to be worth a lookup per row
        }
        return value;
    }
}
