package dev.faro.fabric;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.zip.CRC32C;

/**
 * Deterministic byte patterns and self-checking messages for the conformance suites (in one JVM and across
 * processes, see {@link FabricPeerMain}).
 *
 * <pre>
 * Test message, native byte order (both ends run on one host)
 *  0        4        8                16       20       24                32
 *  +--------+--------+----------------+--------+--------+----------------+----------------------+
 *  | magic  | stream |    sequence    | length | unused |    checksum    | body: pattern(stream, |
 *  +--------+--------+----------------+--------+--------+----------------+  sequence), length-32 |
 *                                                                         +----------------------+
 *  checksum: CRC32C over bytes [0, 24) and [32, length)
 * </pre>
 *
 * Coordination code for tests: allocates freely.
 */
public final class TestPayloads {

    public static final int MAGIC = 0xFA20_7E57;
    public static final int HEADER_BYTES = 32;
    private static final int MAGIC_OFFSET = 0;
    private static final int STREAM_OFFSET = 4;
    private static final int SEQUENCE_OFFSET = 8;
    private static final int LENGTH_OFFSET = 16;
    private static final int CHECKSUM_OFFSET = 24;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private TestPayloads() {}

    /** SplitMix64 of {@code seed + index}: a cheap, well-mixed pseudo-random word. */
    public static long mix(long seed, long index) {
        long z = seed + (index + 1) * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** Fills {@code length} bytes at {@code offset} with the pattern of {@code seed} (byte i of the pattern at offset + i). */
    public static void fill(MemorySegment segment, long offset, long length, long seed) {
        long words = length >>> 3;
        for (long w = 0; w < words; w++) {
            segment.set(LONG, offset + (w << 3), mix(seed, w));
        }
        long tail = words << 3;
        if (tail < length) {
            long last = mix(seed, words);
            for (long i = tail; i < length; i++) {
                segment.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (last >>> ((i - tail) << 3)));
            }
        }
    }

    /** A heap segment holding the pattern of {@code seed}. */
    public static MemorySegment pattern(long length, long seed) {
        MemorySegment expected = MemorySegment.ofArray(new byte[Math.toIntExact(length)]);
        fill(expected, 0, length, seed);
        return expected;
    }

    /** The first index in [0, length) where the bytes at {@code offset} differ from the pattern of {@code seed}, or -1. */
    public static long mismatch(MemorySegment segment, long offset, long length, long seed) {
        return MemorySegment.mismatch(segment, offset, offset + length, pattern(length, seed), 0, length);
    }

    /** Copies {@code length} bytes at {@code offset} into a heap array (a snapshot to compare against later). */
    public static byte[] snapshot(MemorySegment segment, long offset, long length) {
        return segment.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    /** Whether the bytes at {@code offset} still equal {@code snapshot}. */
    public static boolean unchanged(MemorySegment segment, long offset, byte[] snapshot) {
        return MemorySegment.mismatch(
                        segment, offset, offset + snapshot.length, MemorySegment.ofArray(snapshot), 0, snapshot.length)
                == -1;
    }

    /** Writes a self-checking message of {@code length} bytes (at least {@link #HEADER_BYTES}) and returns its checksum. */
    public static long writeMessage(MemorySegment segment, long offset, int stream, long sequence, int length) {
        if (length < HEADER_BYTES) {
            throw new IllegalArgumentException("length=" + length + " < HEADER_BYTES=" + HEADER_BYTES);
        }
        segment.set(INT, offset + MAGIC_OFFSET, MAGIC);
        segment.set(INT, offset + STREAM_OFFSET, stream);
        segment.set(LONG, offset + SEQUENCE_OFFSET, sequence);
        segment.set(INT, offset + LENGTH_OFFSET, length);
        segment.set(INT, offset + LENGTH_OFFSET + 4, 0);
        fill(segment, offset + HEADER_BYTES, length - HEADER_BYTES, bodySeed(stream, sequence));
        long checksum = checksum(segment, offset, length);
        segment.set(LONG, offset + CHECKSUM_OFFSET, checksum);
        return checksum;
    }

    /**
     * Checks a received message of {@code receivedLength} bytes: magic, stated length, checksum and body pattern.
     *
     * @return null when intact, otherwise a description of what is wrong
     */
    public static String verifyMessage(MemorySegment segment, long offset, int receivedLength) {
        if (receivedLength < HEADER_BYTES) {
            return "message of " + receivedLength + " bytes is shorter than its header";
        }
        int magic = segment.get(INT, offset + MAGIC_OFFSET);
        if (magic != MAGIC) {
            return "bad magic " + Integer.toHexString(magic);
        }
        int length = segment.get(INT, offset + LENGTH_OFFSET);
        if (length != receivedLength) {
            return "message states length " + length + " but " + receivedLength + " bytes were received";
        }
        long stated = segment.get(LONG, offset + CHECKSUM_OFFSET);
        long actual = checksum(segment, offset, length);
        if (stated != actual) {
            return "checksum mismatch: stated " + Long.toHexString(stated) + ", computed " + Long.toHexString(actual)
                    + " (stream " + stream(segment, offset) + ", sequence " + sequence(segment, offset) + ")";
        }
        long bad = mismatch(
                segment,
                offset + HEADER_BYTES,
                length - HEADER_BYTES,
                bodySeed(stream(segment, offset), sequence(segment, offset)));
        if (bad >= 0) {
            return "body differs from its pattern at byte " + (HEADER_BYTES + bad);
        }
        return null;
    }

    public static int stream(MemorySegment segment, long offset) {
        return segment.get(INT, offset + STREAM_OFFSET);
    }

    public static long sequence(MemorySegment segment, long offset) {
        return segment.get(LONG, offset + SEQUENCE_OFFSET);
    }

    /** The checksum a message states (valid after {@link #verifyMessage} returned null). */
    public static long statedChecksum(MemorySegment segment, long offset) {
        return segment.get(LONG, offset + CHECKSUM_OFFSET);
    }

    /** CRC32C of {@code length} bytes at {@code offset}: how parent and child processes compare memory. */
    public static long crc32c(MemorySegment segment, long offset, long length) {
        CRC32C crc = new CRC32C();
        crc.update(segment.asSlice(offset, length).asByteBuffer());
        return crc.getValue();
    }

    /** A message length in [minBytes, maxBytes] chosen by (seed, stream, sequence), so both ends can agree on it. */
    public static int messageLength(long seed, int stream, long sequence, int minBytes, int maxBytes) {
        long span = (long) maxBytes - minBytes + 1;
        return (int) (minBytes + Long.remainderUnsigned(mix(seed ^ ((long) stream << 40), sequence), span));
    }

    private static long bodySeed(int stream, long sequence) {
        return mix(0x5EED_0000L + stream, sequence);
    }

    private static long checksum(MemorySegment segment, long offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(segment.asSlice(offset, CHECKSUM_OFFSET).asByteBuffer());
        crc.update(segment.asSlice(offset + HEADER_BYTES, length - HEADER_BYTES).asByteBuffer());
        return crc.getValue();
    }
}
