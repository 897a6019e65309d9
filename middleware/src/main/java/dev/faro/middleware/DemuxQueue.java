package dev.faro.middleware;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Rows of one operator that a worker found in a shared ring while it was reading for another operator (or while it
 * was blocked sending): they are moved here so that the ring keeps draining. This is the answer to the shared-ring
 * head-of-line problem: a ring is never left full of rows nobody is asking for, so no sender waits on an operator
 * the receiver has not reached yet. The cost is heap memory for those rows, grown by doubling (the only allocation
 * after open, and only while a later stage's rows run ahead of the current one).
 *
 * <p>Owned by one worker thread. Entries are {@code [length:int][payload]}.
 */
final class DemuxQueue {

    private byte[] bytes;
    private int readIndex;
    private int writeIndex;
    /** Bytes of the arrays allocated by growing (the owning worker's thread writes; approximate elsewhere). */
    long grownBytes;

    /** Ends of stream received for this operator (from senders). */
    int endsOfStream;

    DemuxQueue(int initialBytes) {
        bytes = new byte[initialBytes];
    }

    boolean isEmpty() {
        return readIndex == writeIndex;
    }

    void add(MemorySegment ring, long offset, int length) {
        int needed = Integer.BYTES + length;
        if (writeIndex + needed > bytes.length) {
            compactOrGrow(needed);
        }
        putInt(writeIndex, length);
        MemorySegment.copy(ring, ValueLayout.JAVA_BYTE, offset, bytes, writeIndex + Integer.BYTES, length);
        writeIndex += needed;
    }

    /** Copies the oldest row into {@code into} and returns its length; the queue must not be empty. */
    int remove(MemorySegment into) {
        int length = getInt(readIndex);
        MemorySegment.copy(bytes, readIndex + Integer.BYTES, into, ValueLayout.JAVA_BYTE, 0, length);
        readIndex += Integer.BYTES + length;
        if (readIndex == writeIndex) {
            readIndex = 0;
            writeIndex = 0;
        }
        return length;
    }

    private void compactOrGrow(int needed) {
        int used = writeIndex - readIndex;
        byte[] target = bytes;
        if (used + needed > bytes.length / 2) {
            target = new byte[Math.max(bytes.length * 2, used + needed)];
            grownBytes += target.length;
        }
        System.arraycopy(bytes, readIndex, target, 0, used);
        bytes = target;
        readIndex = 0;
        writeIndex = used;
    }

    private void putInt(int index, int value) {
        bytes[index] = (byte) value;
        bytes[index + 1] = (byte) (value >>> 8);
        bytes[index + 2] = (byte) (value >>> 16);
        bytes[index + 3] = (byte) (value >>> 24);
    }

    private int getInt(int index) {
        return (bytes[index] & 0xFF)
                | (bytes[index + 1] & 0xFF) << 8
                | (bytes[index + 2] & 0xFF) << 16
                | (bytes[index + 3] & 0xFF) << 24;
    }
}
