package dev.faro.fabric.net;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable map from non-negative int ids (region ids, queue pair numbers) to objects, with open addressing, so
 * that the progress thread looks objects up without allocating or locking. Ids are never reused, so the table is
 * replaced (copy on write, by the application thread that registers or closes something) rather than indexed by id.
 *
 * <p>Data path: {@link #get} is allocation-free; {@link #with} and {@link #without} allocate (coordination code).
 */
final class IdTable<T> {

    private static final IdTable<?> EMPTY = new IdTable<>(new int[8], new Object[8], 0);

    private final int[] ids;
    private final Object[] values;
    private final int size;

    private IdTable(int[] ids, Object[] values, int size) {
        this.ids = ids;
        this.values = values;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <T> IdTable<T> empty() {
        return (IdTable<T>) EMPTY;
    }

    /** The value with {@code id}, or null. Data path. */
    @SuppressWarnings("unchecked")
    T get(int id) {
        int mask = ids.length - 1;
        for (int slot = mix(id) & mask; ; slot = (slot + 1) & mask) {
            Object value = values[slot];
            if (value == null) {
                return null;
            }
            if (ids[slot] == id) {
                return (T) value;
            }
        }
    }

    int size() {
        return size;
    }

    /** Every value, in no particular order (allocates). */
    @SuppressWarnings("unchecked")
    List<T> values() {
        List<T> all = new ArrayList<>(size);
        for (Object value : values) {
            if (value != null) {
                all.add((T) value);
            }
        }
        return all;
    }

    /** A copy with {@code id} mapped to {@code value}. */
    IdTable<T> with(int id, T value) {
        if (value == null) {
            throw new IllegalArgumentException("value is null: id=" + id);
        }
        List<T> all = new ArrayList<>(size + 1);
        List<Integer> keys = new ArrayList<>(size + 1);
        collect(keys, all, id);
        keys.add(id);
        all.add(value);
        return build(keys, all);
    }

    /** A copy without {@code id}. */
    IdTable<T> without(int id) {
        List<T> all = new ArrayList<>(size);
        List<Integer> keys = new ArrayList<>(size);
        collect(keys, all, id);
        return build(keys, all);
    }

    @SuppressWarnings("unchecked")
    private void collect(List<Integer> keys, List<T> all, int except) {
        for (int slot = 0; slot < values.length; slot++) {
            if (values[slot] != null && ids[slot] != except) {
                keys.add(ids[slot]);
                all.add((T) values[slot]);
            }
        }
    }

    private static <T> IdTable<T> build(List<Integer> keys, List<T> all) {
        int capacity = 8;
        while (capacity < all.size() * 2) {
            capacity <<= 1;
        }
        int[] ids = new int[capacity];
        Object[] values = new Object[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < all.size(); i++) {
            int id = keys.get(i);
            int slot = mix(id) & mask;
            while (values[slot] != null) {
                slot = (slot + 1) & mask;
            }
            ids[slot] = id;
            values[slot] = all.get(i);
        }
        return new IdTable<>(ids, values, all.size());
    }

    private static int mix(int id) {
        return id * 0x9E3779B9;
    }
}
