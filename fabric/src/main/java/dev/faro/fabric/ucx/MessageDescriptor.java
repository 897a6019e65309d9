package dev.faro.fabric.ucx;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The header of every active message between {@code ucx} nodes (UCX AM id {@link #AM_ID}); the payload of a SEND
 * travels as the message's data, the worker address of a CONNECT too.
 *
 * <pre>
 *  0               4               8                              16
 *  +---------------+---------------+------------------------------+
 *  | type          | targetQpn     | sourceNode                   |
 *  +---------------+---------------+------------------------------+
 *  | sourceQpn     | immediate     | psn (the request's post sequence at the initiator) |
 *  +---------------+---------------+------------------------------+
 *  | a: length, remote offset, region id, RNR timeout, old value  |  32
 *  | b: status ordinal, compare or add                            |  40
 *  | c: swap                                                      |  48
 *  | d: region id (high 32 bits) and key (low 32 bits) of an atomic|  56
 *  +---------------+----------------------------------------------+
 *  | magic "FUX1"  | padding                                      |  64
 *  little-endian; written by the sender's progress thread into a header buffer it owns until the send
 *  completes; read by the receiver's progress thread inside the AM handler (valid only during the call).
 * </pre>
 */
final class MessageDescriptor {

    static final int AM_ID = 0x46;
    static final int MAGIC = 0x31585546; // "FUX1"

    static final int TYPE_OFFSET = 0;
    static final int TARGET_QPN_OFFSET = 4;
    static final int SOURCE_NODE_OFFSET = 8;
    static final int SOURCE_QPN_OFFSET = 16;
    static final int IMMEDIATE_OFFSET = 20;
    static final int PSN_OFFSET = 24;
    static final int A_OFFSET = 32;
    static final int B_OFFSET = 40;
    static final int C_OFFSET = 48;
    static final int D_OFFSET = 56;
    static final int MAGIC_OFFSET = 64;
    static final int LENGTH = 72;

    /**
     * Initiator to target: connect my queue pair (sourceQpn) to yours (targetQpn); a = my receiver-not-ready timeout
     * (ns), b = my host ({@link UcxHost}); data: my worker address.
     */
    static final int CONNECT = 1;
    /** Target to initiator: b = 0 connected back, 1 refused; data: the ids of regions closed so far (a bit set). */
    static final int CONNECT_REPLY = 2;
    /** A SEND: a = length; data: the payload. */
    static final int SEND = 3;
    /** The notification of a WRITE_WITH_IMMEDIATE whose bytes were put and flushed: a = length. */
    static final int WRITE_IMMEDIATE = 4;
    /** An atomic applied by the target's progress thread: a = remote offset, b = compare or add, c = swap, d = region
     * id and key, immediate = the opcode ordinal. */
    static final int ATOMIC = 5;
    /** Target to initiator, for psn: b = status ordinal, or {@link #STATUS_RECEIVER_NOT_READY}; a = atomic old value. */
    static final int REPLY = 6;
    /** A region of the sender closed: a = region id; answered with REVOKE_ACK once the receiver flushed. */
    static final int REVOKE = 7;

    static final int REVOKE_ACK = 8;
    static final int HEARTBEAT = 9;
    /** The sender's node closes: its queue pairs fail at once. */
    static final int GOODBYE = 10;
    /**
     * Target to initiator, cumulative: every SEND and WRITE_WITH_IMMEDIATE notification of targetQpn's peer up to psn
     * was placed into a receive. One per queue pair per progress turn instead of a REPLY each (like a cumulative ACK);
     * errors, receiver-not-ready notices and atomics are still answered one by one, with REPLY.
     */
    static final int ACK = 11;

    /** The REPLY status that says "no receive posted yet, still trying" (counted, not a completion). */
    static final int STATUS_RECEIVER_NOT_READY = -1;

    private MessageDescriptor() {}

    static void write(
            MemorySegment header,
            int type,
            int targetQpn,
            long sourceNode,
            int sourceQpn,
            int immediate,
            long psn,
            long a,
            long b,
            long c,
            long d) {
        header.set(ValueLayout.JAVA_INT_UNALIGNED, TYPE_OFFSET, type);
        header.set(ValueLayout.JAVA_INT_UNALIGNED, TARGET_QPN_OFFSET, targetQpn);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, SOURCE_NODE_OFFSET, sourceNode);
        header.set(ValueLayout.JAVA_INT_UNALIGNED, SOURCE_QPN_OFFSET, sourceQpn);
        header.set(ValueLayout.JAVA_INT_UNALIGNED, IMMEDIATE_OFFSET, immediate);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, PSN_OFFSET, psn);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, A_OFFSET, a);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, B_OFFSET, b);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, C_OFFSET, c);
        header.set(ValueLayout.JAVA_LONG_UNALIGNED, D_OFFSET, d);
        header.set(ValueLayout.JAVA_INT_UNALIGNED, MAGIC_OFFSET, MAGIC);
    }

    static int type(MemorySegment header) {
        return header.get(ValueLayout.JAVA_INT_UNALIGNED, TYPE_OFFSET);
    }

    static boolean valid(MemorySegment header) {
        return header.byteSize() >= LENGTH && header.get(ValueLayout.JAVA_INT_UNALIGNED, MAGIC_OFFSET) == MAGIC;
    }

    static int targetQpn(MemorySegment header) {
        return header.get(ValueLayout.JAVA_INT_UNALIGNED, TARGET_QPN_OFFSET);
    }

    static long sourceNode(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, SOURCE_NODE_OFFSET);
    }

    static int sourceQpn(MemorySegment header) {
        return header.get(ValueLayout.JAVA_INT_UNALIGNED, SOURCE_QPN_OFFSET);
    }

    static int immediate(MemorySegment header) {
        return header.get(ValueLayout.JAVA_INT_UNALIGNED, IMMEDIATE_OFFSET);
    }

    static long psn(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, PSN_OFFSET);
    }

    static long a(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, A_OFFSET);
    }

    static long b(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, B_OFFSET);
    }

    static long c(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, C_OFFSET);
    }

    static long d(MemorySegment header) {
        return header.get(ValueLayout.JAVA_LONG_UNALIGNED, D_OFFSET);
    }
}
