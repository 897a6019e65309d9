package dev.faro.engine.operator;

/**
 * The exact set of a join build's first key (not a string) as a bitmap over the keys' range ({@code [min, min +
 * bits)}), checked before a probe hashes its keys: the keys of TPC-H tables are dense (parts, suppliers, customers,
 * orders), so a range of a few million keys takes a bitmap of some hundred KiB, one read per probe row with no hash
 * to compute, and no false positives (with one key it stands in for the {@link JoinFilter}). Made only when the range has at most
 * {@link #MAX_BITS} keys. Read-only once made; data path: allocation-free.
 */
final class KeyBitmap {

    /** The widest key range a bitmap covers (1 MiB of bits). */
    static final long MAX_BITS = 1L << 23;

    private final long min;
    private final long bits;
    private final long[] words;

    private KeyBitmap(long min, long bits) {
        this.min = min;
        this.bits = bits;
        this.words = new long[(int) ((bits + Long.SIZE - 1) >>> 6)];
    }

    /**
     * The bitmap of {@code values[row]} for the rows not flagged in {@code skip}, or null when there is no such row
     * or their range is wider than {@link #MAX_BITS}.
     */
    static KeyBitmap of(long[] values, boolean[] skip, int rows) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int row = 0; row < rows; row++) {
            if (!skip[row]) {
                min = Math.min(min, values[row]);
                max = Math.max(max, values[row]);
            }
        }
        if (min > max || max - min < 0 || max - min >= MAX_BITS) { // none, or overflowing, or too wide
            return null;
        }
        KeyBitmap bitmap = new KeyBitmap(min, max - min + 1);
        for (int row = 0; row < rows; row++) {
            if (!skip[row]) {
                long offset = values[row] - min;
                bitmap.words[(int) (offset >>> 6)] |= 1L << offset;
            }
        }
        return bitmap;
    }

    /** Whether {@code value} is one of the keys. */
    boolean contains(long value) {
        long offset = value - min;
        return Long.compareUnsigned(offset, bits) < 0 && (words[(int) (offset >>> 6)] & (1L << offset)) != 0;
    }
}
