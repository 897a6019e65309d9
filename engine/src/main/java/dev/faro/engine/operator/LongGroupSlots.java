package dev.faro.engine.operator;

/**
 * A primitive open-addressing map from a {@code long} key to a dense group id, for a {@link GroupTable} with one
 * non-string key: key and id side by side in one {@code long[]} (one cache line per probe, where the general table
 * reads a slot, a hash and a key column), Fibonacci hashing, linear probing, at most half full. Thread-confined.
 *
 * <p>Data path: allocation-free except when it grows.
 */
final class LongGroupSlots {

    private static final long EMPTY = -1;

    /** {@code [2 * slot]} the key, {@code [2 * slot + 1]} the group id or {@link #EMPTY}. */
    private long[] table;

    private int shift;
    private int mask;
    private int size;

    LongGroupSlots() {
        allocate(1024);
    }

    private void allocate(int slots) {
        table = new long[2 * slots];
        for (int s = 1; s < table.length; s += 2) {
            table[s] = EMPTY;
        }
        mask = slots - 1;
        shift = 64 - Integer.numberOfTrailingZeros(slots);
    }

    /**
     * Tables from this many slots on (1 MiB) outgrow the core's own caches: {@link #prefetch} then pays for itself.
     */
    static final int PREFETCH_MIN_SLOTS = 1 << 16;

    /** Rows per {@link #prefetch} chunk: their slots' cache lines (at most 16 KiB) stay in L1 until looked up. */
    static final int PREFETCH_ROWS = 256;

    /** Where {@link #prefetch} leaves what it read, so that the JIT cannot drop the reads. */
    private long prefetched;

    /** Whether the table is large enough for {@link #prefetch} to help. */
    boolean prefetches() {
        return mask + 1 >= PREFETCH_MIN_SLOTS;
    }

    /**
     * Reads the home slot of each key of {@code keys[from, to)} (NULL rows' too: harmless; group prefetching:
     * independent loads with no branch between them, so their cache misses overlap, where {@link #findOrPut}'s misses
     * come one after another).
     */
    void prefetch(long[] keys, int from, int to) {
        long[] table = this.table;
        int shift = this.shift;
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += table[2 * (int) ((keys[i] * 0x9E3779B97F4A7C15L) >>> shift) + 1];
        }
        prefetched += sum;
    }

    /** The group of {@code key}; when it has none, {@code candidate} becomes its group (and is returned). */
    int findOrPut(long key, int candidate) {
        long[] table = this.table;
        int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
        while (true) {
            long group = table[2 * slot + 1];
            if (group == EMPTY) {
                table[2 * slot] = key;
                table[2 * slot + 1] = candidate;
                if (++size * 2 > mask + 1) {
                    grow();
                }
                return candidate;
            }
            if (table[2 * slot] == key) {
                return (int) group;
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Makes room for {@code keys} keys in all, so that inserting them does not grow the table. */
    void reserve(int keys) {
        int slots = Integer.highestOneBit(Math.max(1, keys) * 2 - 1) << 1; // at most half full, as grow() keeps it
        if (slots > mask + 1) {
            long[] old = table;
            allocate(slots);
            rehashFrom(old);
        }
    }

    /** How many keys are mapped. */
    int size() {
        return size;
    }

    private void grow() {
        long[] old = table;
        allocate((mask + 1) * 2);
        rehashFrom(old);
    }

    /** Inserts the entries of the previous table {@code old} into the freshly allocated one. */
    private void rehashFrom(long[] old) {
        for (int s = 0; s < old.length; s += 2) {
            if (old[s + 1] != EMPTY) {
                long key = old[s];
                int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
                while (table[2 * slot + 1] != EMPTY) {
                    slot = (slot + 1) & mask;
                }
                table[2 * slot] = key;
                table[2 * slot + 1] = old[s + 1];
            }
        }
    }
}
