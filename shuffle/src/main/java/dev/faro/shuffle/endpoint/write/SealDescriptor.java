package dev.faro.shuffle.endpoint.write;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The layout of a buffer of RDMA WRITE over RC in {@link WriteCompletionMode#POLL_BUFFERS} mode (TODS19 §5.5.1),
 * the same in the sender's pool and in the receiver's buffers:
 *
 * <pre>
 *  buffer i at i * bufferBytes (bufferBytes a multiple of 8):
 *  0                  32                                            bufferBytes - 8     bufferBytes
 *  +------------------+---------------------------------------------+-------------------+
 *  |  message header  |  payload (at most bufferBytes - 40 bytes)   |    seal (8 B)     |
 *  +------------------+---------------------------------------------+-------------------+
 * </pre>
 *
 * <ul>
 *   <li>{@code seal} (last 8 B, little-endian): the message's sequence, at least 1; zero means "not written". Writer:
 *       the sending endpoint, as the last 8-byte word of its one WRITE of the whole buffer, which the fabric
 *       makes visible last, with release. The receiver resets it to zero (release) when the buffer is released,
 *       before it announces the buffer free again; no WRITE can reach the buffer until then.</li>
 *   <li>Reader: the receiving endpoint's scan, with acquire; a non-zero seal orders the header and payload reads
 *       after it.</li>
 *   <li>The sequence counts the sending endpoint's PUTDATA calls (so all destinations of a multicast see the same
 *       bytes). Buffers of one source are handed out smallest seal first: RC places one queue pair's WRITEs in
 *       order, so once a seal is seen every smaller seal of that source is visible too, and a second pass over the
 *       source's seals (a single pass is no snapshot) finds the next one. That keeps each sending thread's order
 *       and makes DEPLETED (the largest) the source's last buffer.</li>
 * </ul>
 */
public final class SealDescriptor {

    public static final int SEAL_LENGTH = 8;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private SealDescriptor() {}

    /** Where buffer {@code index}'s seal lives in a region of buffers of {@code bufferBytes}. */
    public static long sealOffset(int index, int bufferBytes) {
        return (long) (index + 1) * bufferBytes - SEAL_LENGTH;
    }

    /** Checks that buffers of {@code bufferBytes} can carry a seal (8-aligned words). */
    public static void checkBufferBytes(int bufferBytes) {
        if (bufferBytes % SEAL_LENGTH != 0) {
            throw new IllegalArgumentException(
                    "POLL_BUFFERS needs bufferBytes to be a multiple of 8: bufferBytes=" + bufferBytes);
        }
    }

    /** Sender: stores the seal into its own buffer before posting the WRITE (the post orders it). */
    static void stage(MemorySegment region, long sealOffset, long sequence) {
        region.set(ValueLayout.JAVA_LONG, sealOffset, sequence);
    }

    /** Receiver: the seal, with acquire. */
    static long read(MemorySegment region, long sealOffset) {
        return (long) LONG.getAcquire(region, sealOffset);
    }

    /** Receiver: resets the seal, with release, before the buffer is announced free. */
    static void clear(MemorySegment region, long sealOffset) {
        LONG.setRelease(region, sealOffset, 0L);
    }
}
