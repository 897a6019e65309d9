package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.Arrays;
import java.util.List;

/**
 * COUNT(DISTINCT x) of an exact argument (BIGINT, DECIMAL, INTEGER, DATE) in the SINGLE phase, without boxing: one
 * open-addressing set of distinct (group, value) pairs for all groups, each pair an entry chained to its group's
 * others (for merging a group), and a count per group. Where {@link CountDistinctAccumulator} keeps a boxed
 * {@code HashSet} per group (Q16: one per brand, type and size). NULLs are not counted. Thread-confined.
 *
 * <p>Data path: allocation-free except when the arrays grow.
 */
final class LongCountDistinctAccumulator extends Accumulator {

    /** Per slot: the entry index plus one, 0 when empty; at most half full. */
    private int[] slots = new int[1024];

    private int mask = slots.length - 1;
    private int[] entryGroups = new int[512];
    private long[] entryValues = new long[512];
    /** Per entry: the group's next entry, or -1. */
    private int[] entryNext = new int[512];

    private int entries;
    /** Per group: its first entry, or -1. */
    private int[] heads = new int[0];

    private long[] counts = new long[0];

    @Override
    void ensureGroups(int groups) {
        if (heads.length < groups) {
            int old = heads.length;
            int length = grow(old, groups);
            heads = Arrays.copyOf(heads, length);
            Arrays.fill(heads, old, length, -1);
            counts = Arrays.copyOf(counts, length);
        }
    }

    @Override
    void addRaw(int[] groupIds, Vector argument, int rows) {
        switch (argument) {
            case LongVector v -> {
                long[] values = v.values();
                boolean[] nulls = v.nulls();
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        add(groupIds[i], values[i]);
                    }
                }
            }
            case IntVector v -> {
                int[] values = v.values();
                boolean[] nulls = v.nulls();
                for (int i = 0; i < rows; i++) {
                    if (nulls == null || !nulls[i]) {
                        add(groupIds[i], values[i]);
                    }
                }
            }
            default -> throw new IllegalArgumentException("an exact argument is needed: " + argument.type());
        }
    }

    /** Counts {@code value} for {@code group} unless the group has it already. */
    private void add(int group, long value) {
        int slot = slot(group, value);
        while (true) {
            int entry = slots[slot] - 1;
            if (entry < 0) {
                insert(slot, group, value);
                return;
            }
            if (entryValues[entry] == value && entryGroups[entry] == group) {
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    private int slot(int group, long value) {
        return (int) KeyColumns.mix(value * 31 + group) & mask;
    }

    private void insert(int slot, int group, long value) {
        if (entries == entryValues.length) {
            int length = entries * 2;
            entryGroups = Arrays.copyOf(entryGroups, length);
            entryValues = Arrays.copyOf(entryValues, length);
            entryNext = Arrays.copyOf(entryNext, length);
        }
        int entry = entries++;
        entryGroups[entry] = group;
        entryValues[entry] = value;
        entryNext[entry] = heads[group];
        heads[group] = entry;
        counts[group]++;
        slots[slot] = entry + 1;
        if (entries * 2 > slots.length) {
            rehash();
        }
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int entry = 0; entry < entries; entry++) {
            int slot = slot(entryGroups[entry], entryValues[entry]);
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = entry + 1;
        }
    }

    @Override
    void addState(int[] groupIds, Batch batch, int column, int rows) {
        throw new IllegalStateException("COUNT_DISTINCT has no FINAL phase");
    }

    @Override
    void merge(int group, Accumulator other, int otherGroup) {
        LongCountDistinctAccumulator that = (LongCountDistinctAccumulator) other;
        if (otherGroup >= that.heads.length) {
            return;
        }
        for (int entry = that.heads[otherGroup]; entry >= 0; entry = that.entryNext[entry]) {
            add(group, that.entryValues[entry]);
        }
    }

    @Override
    Vector result(int from, int count) {
        long[] result = new long[count];
        int known = Math.max(0, Math.min(count, counts.length - from));
        System.arraycopy(counts, from, result, 0, known);
        return new LongVector(DataType.BIGINT, result);
    }

    @Override
    List<Vector> state(int from, int count) {
        throw new IllegalStateException("COUNT_DISTINCT has no PARTIAL phase");
    }
}
