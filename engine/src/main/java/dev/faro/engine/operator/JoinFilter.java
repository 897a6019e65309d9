package dev.faro.engine.operator;

/**
 * A blocked Bloom filter over the key hashes of a join's build rows, checked before a probe touches the hash table: a
 * probe key that no build row has is, in all but a few percent of cases, rejected by one read of a small array (8 bits
 * per build row: L2-resident for builds of some 100,000 rows) instead of a cache miss in the table. Each key sets two
 * bits of one 64-bit word; word and bits come from the hash's high 32 bits, the table's buckets from its low bits.
 * About 5 % false positives (they only cost the table lookup); no false negatives. The filter stops growing at 8 MiB
 * ({@code MAX_WORDS}): past some 8 million build rows it has fewer bits per row and more false positives.
 *
 * <p>Built once by the join's build threads, each adding the keys of the words it owns ({@link #owner}), then read by
 * every probing thread after the builders were joined. Data path: allocation-free.
 */
final class JoinFilter {

    private static final int BITS_PER_ROW = 8;
    private static final int MAX_WORDS = 1 << 20; // word indexes use hash bits 32..51, bit positions 52..63

    private final long[] words;
    private final int mask;

    JoinFilter(int rows) {
        long wanted = Math.max(1L, (long) rows * BITS_PER_ROW / Long.SIZE);
        int count = (int) Math.min(MAX_WORDS, Long.highestOneBit(wanted - 1) << 1);
        this.words = new long[Math.max(1, count)];
        this.mask = words.length - 1;
    }

    /** The word {@code hash} falls into. */
    int word(long hash) {
        return (int) (hash >>> 32) & mask;
    }

    /** Which of {@code threads} build threads adds {@code hash} (the owner of its word: no two threads write one). */
    int owner(long hash, int threads) {
        return word(hash) % threads;
    }

    private static long bits(long hash) {
        return (1L << (hash >>> 52)) | (1L << (hash >>> 58)); // shift distances use their low 6 bits
    }

    /** Adds {@code hash}; only its {@link #owner} thread may call this while the filter is built. */
    void add(long hash) {
        words[word(hash)] |= bits(hash);
    }

    /** False when no added hash equals {@code hash}; true when one does (and for a few percent of others). */
    boolean mightContain(long hash) {
        long bits = bits(hash);
        return (words[word(hash)] & bits) == bits;
    }
}
