package dev.faro.middleware;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The list of one reading worker's incoming rings that have data it has not read (DAIS16 §3.1: "the network thread
 * keeps a list of buffers with data", so no buffer is polled actively). A ring is put on it by whoever publishes new
 * data in it: the network thread for a WRITTEN notification, a same-process sender when it publishes a batch. The
 * reading worker takes the whole list at once and visits only the rings on it; a ring it stopped in (a row was
 * found before the ring ran dry) stays on its private part for the next poll.
 *
 * <p>A set of bits, one per source worker: marking a ring that is already on the list costs nothing more, and the
 * list never needs more room than one bit per ring. No update is lost: a publisher stores the written position,
 * then sets the bit (atomically); the reader swaps the shared bits to zero, then reads the written positions. Either
 * the reader's swap saw the bit, and then it sees the position, or the bit was set after the swap and stays for the
 * next poll.
 *
 * <p>Data path: allocation-free.
 */
final class ReadyRings {

    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Set by publishers (any thread), swapped to zero by the reader. */
    private final long[] shared;
    /** The reader's own: rings taken from {@link #shared} and not yet read dry. */
    private final long[] pending;

    ReadyRings(int rings) {
        int words = (rings + Long.SIZE - 1) / Long.SIZE;
        this.shared = new long[Math.max(1, words)];
        this.pending = new long[Math.max(1, words)];
    }

    /** Any thread: ring {@code ring} has new data; call after its written position was published. */
    void mark(int ring) {
        WORDS.getAndBitwiseOr(shared, ring >>> 6, 1L << ring);
    }

    /** Reader: takes the rings marked since the last call onto its own part; whether any ring is on that part. */
    boolean collect() {
        boolean any = false;
        for (int word = 0; word < shared.length; word++) {
            if ((long) WORDS.getAcquire(shared, word) != 0) {
                pending[word] |= (long) WORDS.getAndSet(shared, word, 0L);
            }
            any |= pending[word] != 0;
        }
        return any;
    }

    /** Reader: the first ring of its own part at or after {@code from}, wrapping around; −1 when there is none. */
    int next(int from) {
        int words = pending.length;
        int word = from >>> 6;
        long bits = pending[word] & (-1L << from);
        for (int i = 0; i <= words; i++) {
            if (bits != 0) {
                return (word << 6) + Long.numberOfTrailingZeros(bits);
            }
            word = word + 1 == words ? 0 : word + 1;
            bits = pending[word];
        }
        return -1;
    }

    /** Reader: ring {@code ring} was read as far as it is written. */
    void clear(int ring) {
        pending[ring >>> 6] &= ~(1L << ring);
    }

    /** Reader: whether a ring is on its own part or marked (approximate). */
    boolean isEmpty() {
        for (int word = 0; word < shared.length; word++) {
            if (pending[word] != 0 || (long) WORDS.getAcquire(shared, word) != 0) {
                return false;
            }
        }
        return true;
    }
}
