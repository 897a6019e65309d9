package dev.faro.bench.fabric;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The credit word of a two-sided stream, and the only code that touches it.
 *
 * <pre>
 * Credit: in the initiator's registered credit region (LOCAL_WRITE, REMOTE_WRITE), one per initiator
 *  0                               4                               8
 *  +-------------------------------+-------------------------------+
 *  |                  receivesPosted (low, high)                   |  8 B at offset 0
 *  +-------------------------------+-------------------------------+
 *  |                     padding to 128 B                          |
 *  +---------------------------------------------------------------+
 *  receivesPosted: native byte order (little-endian on x86; both processes share one host).
 *    writer: the target's Receiver thread, through an RDMA WRITE (8 B inline) on the stream's RC queue pair,
 *            after the receives it counts are posted; the initiator's main thread zeroes it in PREPARE, before
 *            the target can write it.
 *    reader: the initiator's main thread, with acquire (a WRITE's last 8-byte word lands last, with release).
 *    rule:   absolute and monotonically increasing within a point, so a late or repeated write is harmless; the
 *            initiator posts its SEND number n (counted from 1) only when n - receivesPosted &lt;= 0.
 * </pre>
 *
 * <p>Data path: allocation-free.
 */
final class CreditDescriptor {

    static final int RECEIVES_POSTED_OFFSET = 0;
    static final int RECEIVES_POSTED_LENGTH = 8;

    /** The region's length: the word plus padding, so nothing else shares its cache lines. */
    static final int LENGTH = 128;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private CreditDescriptor() {}

    /** The receives the target has posted so far in this point (acquire). */
    static long receivesPosted(MemorySegment credit) {
        return (long) LONG.getAcquire(credit, (long) RECEIVES_POSTED_OFFSET);
    }

    /** Zeroes the word for a new point; the target writes it only after the point's queue pairs are connected. */
    static void reset(MemorySegment credit) {
        LONG.setRelease(credit, (long) RECEIVES_POSTED_OFFSET, 0L);
    }

    /** Encodes {@code receivesPosted} into the 8-byte inline payload of the target's credit WRITE. */
    static void encode(MemorySegment inlinePayload, long receivesPosted) {
        inlinePayload.set(ValueLayout.JAVA_LONG, 0, receivesPosted);
    }
}
