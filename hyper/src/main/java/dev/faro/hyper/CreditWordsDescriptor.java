package dev.faro.hyper;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The credit region of a node's multiplexer: registered with REMOTE_WRITE, one 128-byte block per peer node, holding
 * two words the peer writes into with 8-byte inline RDMA WRITEs:
 *
 * <pre>
 *  0                8                64               72                               128
 *  +----------------+----------------+----------------+-------------------------------+
 *  | credit (8)     |   padding      | phase (8)      |          padding              |  block of peer p at p * 128
 *  +----------------+----------------+----------------+-------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code credit}: how many receives peer {@code p} has posted again for this node since the connection started
 *       (absolute, only grows; the R receives posted at the start are not counted). Written by {@code p}'s network
 *       thread after it posted receives again; read by this node's network thread with acquire: this node may send
 *       its {@code k}-th message to {@code p} while {@code k < R + credit}.</li>
 *   <li>{@code phase}: with round-robin scheduling, the next phase {@code p} has announced (it finished every phase
 *       below). Written by {@code p}'s network thread; read by this node's with acquire; only grows.</li>
 * </ul>
 *
 * <p>Native byte order (the writer and reader share a host or an architecture). Both words are reset to zero by this
 * node's network thread when it replaces the connection to {@code p} (a new peer process starts counting at zero).
 */
final class CreditWordsDescriptor {

    static final long BLOCK_LENGTH = 128;
    static final long CREDIT_OFFSET = 0;
    static final long PHASE_OFFSET = 64;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private CreditWordsDescriptor() {}

    static long regionLength(int nodes) {
        return BLOCK_LENGTH * nodes;
    }

    /** Where node {@code node}'s credit word lies in a peer's region (the offset of an RDMA WRITE). */
    static long creditOffset(int node) {
        return node * BLOCK_LENGTH + CREDIT_OFFSET;
    }

    static long phaseOffset(int node) {
        return node * BLOCK_LENGTH + PHASE_OFFSET;
    }

    static long credit(MemorySegment region, int peer) {
        return (long) LONG.getAcquire(region, creditOffset(peer));
    }

    static long phase(MemorySegment region, int peer) {
        return (long) LONG.getAcquire(region, phaseOffset(peer));
    }

    static void reset(MemorySegment region, int peer) {
        LONG.setRelease(region, creditOffset(peer), 0L);
        LONG.setRelease(region, phaseOffset(peer), 0L);
    }
}
