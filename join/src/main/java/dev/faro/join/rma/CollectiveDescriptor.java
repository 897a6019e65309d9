package dev.faro.join.rma;

import dev.faro.fabric.FaroException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The layout of a rank's collective region, the registered memory every collective of an {@link RmaGroup} writes
 * into: two banks (by round parity) of one slot per rank.
 *
 * <pre>
 * CollectiveRegion: in every rank's registered memory, 2 x size slots of S bytes (S = collectiveSlotBytes)
 *  bank b = round &amp; 1, slot of rank r at (b * size + r) * S
 *  0                          S-16-n            S-16          S-8           S
 *  +--------------------------+-----------------+-------------+-------------+
 *  |        (unused)          |  payload, n B   | n (8 B, LE) | round (8 B) |
 *  +--------------------------+-----------------+-------------+-------------+
 *  written by rank r with one WRITE of n + 16 bytes ending at S; round is the LAST word, so it lands last
 *  (fabric contract: a WRITE's bytes become visible in increasing address order, its last word with release).
 *  read by the region's owner: round with acquire; when it equals the expected round, n and the payload are valid.
 *  reuse: rank r writes round k+2 into the bank of round k only after it finished round k+1, which needed every
 *  rank's round k+1 slot, which every rank wrote only after reading its round k slots.
 * </pre>
 *
 * <p>The payload is right-aligned so that one contiguous WRITE carries it, its length and the round.
 */
final class CollectiveDescriptor {

    static final int LENGTH_FROM_END = 16;
    static final int ROUND_FROM_END = 8;
    static final int TRAILER_LENGTH = 16;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private CollectiveDescriptor() {}

    /** The bytes of the collective region of a group of {@code size} ranks. */
    static long regionLength(int size, int slotBytes) {
        return 2L * size * slotBytes;
    }

    /** The largest payload of one round. */
    static int payloadCapacity(int slotBytes) {
        return slotBytes - TRAILER_LENGTH;
    }

    /** The offset of {@code rank}'s slot for {@code round}. */
    static long slotOffset(long round, int rank, int size, int slotBytes) {
        return ((round & 1) * size + rank) * (long) slotBytes;
    }

    /** The offset at which a payload of {@code length} bytes starts inside its slot. */
    static long payloadOffset(int slotBytes, int length) {
        FaroException.checkArgument(
                length >= 0 && length <= payloadCapacity(slotBytes), "payload length out of range: %d", length);
        return slotBytes - TRAILER_LENGTH - length;
    }

    /** Writes the trailer (length, round) behind a payload staged at the end of a slot-sized staging segment. */
    static void writeTrailer(MemorySegment staging, int slotBytes, int length, long round) {
        staging.set(ValueLayout.JAVA_LONG, slotBytes - LENGTH_FROM_END, length);
        staging.set(ValueLayout.JAVA_LONG, slotBytes - ROUND_FROM_END, round);
    }

    /** The round word of the slot at {@code slotOffset}, read with acquire. */
    static long round(MemorySegment region, long slotOffset, int slotBytes) {
        return (long) LONG.getAcquire(region, slotOffset + slotBytes - ROUND_FROM_END);
    }

    /** The payload length of the slot at {@code slotOffset} (valid once its round matched). */
    static int length(MemorySegment region, long slotOffset, int slotBytes) {
        return (int) region.get(ValueLayout.JAVA_LONG, slotOffset + slotBytes - LENGTH_FROM_END);
    }
}
