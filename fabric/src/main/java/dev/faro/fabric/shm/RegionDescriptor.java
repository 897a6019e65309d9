package dev.faro.fabric.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A registered region's file ({@code mr-<id>}): one page of header, then the registered bytes, page aligned.
 *
 * <pre>
 *  0               4               8               12              16
 *  +---------------+---------------+---------------+---------------+
 *  |     magic     |    version    |      key      |  access bits  |
 *  +---------------+---------------+---------------+---------------+
 *  |        length (bytes)         | registered    |                  16..27
 *  +-------------------------------+---------------+
 *  ... zero up to 4096 ...
 *  +---------------------------------------------------------------+
 *  |  data: length bytes                                           |  4096..
 * </pre>
 *
 * <p>The owner writes the header once, {@code registered} last (release), and clears {@code registered} (release)
 * when it deregisters; peers unmap the file once they see it cleared. Initiators read {@code registered} with acquire
 * and check key, rights and bounds before every access; a mismatch fails the access without touching the data. Data
 * bytes are written by the owner's threads and, through WRITE, SEND and atomics, by initiators on any node.
 */
final class RegionDescriptor {

    static final int MAGIC = 0x4641524d; // "FARM"
    static final int VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long KEY_OFFSET = 8;
    static final long ACCESS_OFFSET = 12;
    static final long LENGTH_OFFSET = 16;
    static final long REGISTERED_OFFSET = 24;
    static final long DATA_OFFSET = SharedMemory.PAGE_BYTES;

    private RegionDescriptor() {}

    static String fileName(int regionId) {
        return "mr-" + regionId;
    }

    static long fileLength(long dataLength) {
        return DATA_OFFSET + dataLength;
    }

    static void initialize(MemorySegment file, int key, int accessBits, long length) {
        file.set(ValueLayout.JAVA_INT, MAGIC_OFFSET, MAGIC);
        file.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        file.set(ValueLayout.JAVA_INT, KEY_OFFSET, key);
        file.set(ValueLayout.JAVA_INT, ACCESS_OFFSET, accessBits);
        file.set(ValueLayout.JAVA_LONG, LENGTH_OFFSET, length);
        SharedMemory.INT.setRelease(file, REGISTERED_OFFSET, 1);
    }

    static void deregister(MemorySegment file) {
        SharedMemory.INT.setRelease(file, REGISTERED_OFFSET, 0);
    }

    /** Whether the owner deregistered the region (or has not finished registering it); peers then unmap it. */
    static boolean isDeregistered(MemorySegment file) {
        return (int) SharedMemory.INT.getAcquire(file, REGISTERED_OFFSET) == 0;
    }

    /**
     * Whether a peer holding {@code key} may access {@code [offset, offset + length)} of the data with the right
     * {@code accessBit}. Data path: allocation-free.
     */
    static boolean permits(MemorySegment file, int key, int accessBit, long offset, long length) {
        if ((int) SharedMemory.INT.getAcquire(file, REGISTERED_OFFSET) == 0) {
            return false;
        }
        if (file.get(ValueLayout.JAVA_INT, KEY_OFFSET) != key) {
            return false;
        }
        if ((file.get(ValueLayout.JAVA_INT, ACCESS_OFFSET) & accessBit) == 0) {
            return false;
        }
        long regionLength = file.get(ValueLayout.JAVA_LONG, LENGTH_OFFSET);
        return offset >= 0 && length >= 0 && offset <= regionLength - length;
    }
}
