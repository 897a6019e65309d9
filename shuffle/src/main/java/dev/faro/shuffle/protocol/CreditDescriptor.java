package dev.faro.shuffle.protocol;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The credit words of a sending endpoint: one slot per destination node, each on its own 64-byte line, in a region
 * registered with REMOTE_WRITE.
 *
 * <pre>
 *  slot d (64 B apart):
 *  0                                                               8
 *  +-------+-------------------------------------------------------+
 *  | F |0|            absolute credit (62 bits)                    |
 *  +-------+-------------------------------------------------------+
 * </pre>
 *
 * <p>Writer: the receiving endpoint on node d, by an inlined RDMA WRITE of the whole word (TODS19 §5.2): the total
 * number of receives it has ever posted for this sender, so a lost or repeated update is harmless. Bit 63 (F) marks
 * the FINAL credit: the receiver has seen this sender's DEPLETED and will post no more receives; the sender then
 * pads with empty messages up to that credit (send/receive parity) and may close. Reader: the sending threads, with
 * acquire.
 */
public final class CreditDescriptor {

    public static final long SLOT_LENGTH = 64;
    public static final long FINAL_FLAG = 1L << 63;
    public static final long CREDIT_MASK = ~FINAL_FLAG;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private CreditDescriptor() {}

    public static long regionLength(int nodes) {
        return SLOT_LENGTH * nodes;
    }

    public static long slotOffset(int node) {
        return SLOT_LENGTH * node;
    }

    /** The word for node {@code node} (acquire). */
    public static long read(MemorySegment credits, int node) {
        return (long) LONG.getAcquire(credits, slotOffset(node));
    }

    public static long credit(long word) {
        return word & CREDIT_MASK;
    }

    public static boolean isFinal(long word) {
        return (word & FINAL_FLAG) != 0;
    }
}
