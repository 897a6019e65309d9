package dev.faro.zerosided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Test items: the first word names the producer and the sequence number, the others are a checksum pattern of it. */
final class Items {

    private Items() {}

    static long id(int producer, long sequence) {
        return (long) producer << 40 | sequence;
    }

    static int producer(long id) {
        return (int) (id >>> 40);
    }

    static long sequence(long id) {
        return id & ((1L << 40) - 1);
    }

    static void write(MemorySegment segment, long offset, int itemBytes, long id) {
        segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, id);
        for (int i = 8; i < itemBytes; i += 8) {
            segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + i, pattern(id, i));
        }
    }

    /** The item's id, or -1 when its words do not match its id (a torn or corrupt item). */
    static long read(MemorySegment segment, long offset, int itemBytes) {
        long id = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
        for (int i = 8; i < itemBytes; i += 8) {
            if (segment.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i) != pattern(id, i)) {
                return -1;
            }
        }
        return id;
    }

    private static long pattern(long id, int index) {
        long x = id * 0x9E3779B97F4A7C15L + index;
        return x ^ (x >>> 29);
    }
}
