package dev.faro.middleware;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The record stream inside a ring: every shuffle operator of a plan shares the ring of a worker pair, so each row
 * carries its operator id.
 *
 * <pre>
 *  0               4               8
 *  +---------------+---------------+-------------------------------+
 *  |  operatorId   |    length     | payload, length bytes, padded |  one record, 8-byte aligned
 *  +---------------+---------------+-------------------------------+
 *  operatorId: int, little-endian; {@link #PADDING} marks the unused tail of the ring before it wraps
 *  length: int, little-endian; {@link #END_OF_STREAM} marks the end of the operator's rows from this sender
 *  writer: the sending worker thread, into its outgoing ring; the bytes reach the mirrored incoming ring at the
 *          same offset by one-sided WRITE (or are read in place, for a worker of the same process)
 *  reader: the receiving worker thread, only below the written position announced by a WRITTEN notification
 *          (or published with release by a same-process sender), so no field needs ordering of its own
 * </pre>
 *
 * A record never straddles the end of the ring: a sender that would cross it writes a padding record to the end
 * and starts again at offset 0.
 */
final class RowRecordDescriptor {

    static final int OPERATOR_ID_OFFSET = 0;
    static final int LENGTH_OFFSET = 4;
    static final int HEADER_LENGTH = 8;
    static final int RECORD_ALIGNMENT = 8;
    static final int PADDING = -1;
    static final int END_OF_STREAM = -1;

    private static final ValueLayout.OfInt INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    private RowRecordDescriptor() {}

    /** Throws INVALID_ARGUMENT unless {@code operator} is a valid operator id. */
    static void checkOperator(int operator) {
        if (operator < 0 || operator >= ShuffleQueues.MAX_OPERATORS) {
            throw new dev.faro.fabric.FaroException(
                    dev.faro.fabric.FaroException.Category.INVALID_ARGUMENT,
                    "operator id must be in 0.." + (ShuffleQueues.MAX_OPERATORS - 1) + ": " + operator);
        }
    }

    /** Throws INVALID_ARGUMENT unless {@code operator} is a valid operator id and {@code length} in 0..maxRowBytes. */
    static void checkRow(int operator, int length, int maxRowBytes) {
        checkOperator(operator);
        if (length < 0 || length > maxRowBytes) {
            throw new dev.faro.fabric.FaroException(
                    dev.faro.fabric.FaroException.Category.INVALID_ARGUMENT,
                    "row length must be in 0.." + maxRowBytes + ": " + length);
        }
    }

    /** Bytes a record with this payload occupies in the ring. */
    static int recordLength(int payloadLength) {
        return (HEADER_LENGTH + payloadLength + RECORD_ALIGNMENT - 1) & -RECORD_ALIGNMENT;
    }

    static void writeHeader(MemorySegment ring, long offset, int operatorId, int length) {
        ring.set(INT, offset + OPERATOR_ID_OFFSET, operatorId);
        ring.set(INT, offset + LENGTH_OFFSET, length);
    }

    static int operatorId(MemorySegment ring, long offset) {
        return ring.get(INT, offset + OPERATOR_ID_OFFSET);
    }

    static int length(MemorySegment ring, long offset) {
        return ring.get(INT, offset + LENGTH_OFFSET);
    }
}
