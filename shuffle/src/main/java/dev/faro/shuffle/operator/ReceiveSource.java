package dev.faro.shuffle.operator;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The RECEIVE operator's data movement (TODS19 Algorithm 2) for one thread: GETDATA, copy the tuples out of the
 * registered buffer into the thread's output vector, RELEASE the buffer at once so it goes back into circulation, and
 * return the vector when it is full. A buffer larger than the room left in the vector is copied in part; the rest is
 * carried over to the next call (and the buffer released only when it is empty).
 *
 * <p>A consumer that only reads the tuples may skip the copy: {@link #nextInPlace} hands out the received buffer's
 * payload itself ({@link #inPlace}) and releases it at the next call, as an MPI receiver consumes a message in its
 * receive buffer before re-posting it.
 *
 * <p>Thread-confined (one per RECEIVE thread); several may share one endpoint (SE). Data path: allocation-free.
 */
public final class ReceiveSource {

    private final ReceiveEndpoint endpoint;
    private final int tupleBytes;
    private ShuffleBuffer carried;
    private int carriedOffset;
    private boolean finished;
    /** Whether {@link #carried} was handed out by {@link #nextInPlace} (released at the next call). */
    private boolean lent;

    public ReceiveSource(ReceiveEndpoint endpoint, int tupleBytes) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint is null");
        if (tupleBytes < 1) {
            throw new IllegalArgumentException("tupleBytes must be positive: tupleBytes=" + tupleBytes);
        }
        this.tupleBytes = tupleBytes;
    }

    /**
     * Fills {@code output} with up to {@code output.byteSize() / tupleBytes} tuples and returns how many; waits for
     * data while there is none. Returns 0 only at the end of the stream (every sender depleted), and from then on.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the shuffle failed
     */
    public int next(MemorySegment output) {
        int capacity = (int) (output.byteSize() / tupleBytes);
        if (capacity == 0) {
            throw new IllegalArgumentException("output holds no tuple: bytes=" + output.byteSize());
        }
        releaseLent();
        int filled = 0;
        while (filled < capacity && !finished) {
            if (carried == null) {
                carried = endpoint.getData();
                carriedOffset = 0;
                if (carried == null) {
                    finished = true;
                    break;
                }
            }
            int available = (carried.payloadLength() - carriedOffset) / tupleBytes;
            int take = Math.min(available, capacity - filled);
            MemorySegment.copy(
                    carried.payload(), carriedOffset, output, (long) filled * tupleBytes, (long) take * tupleBytes);
            filled += take;
            carriedOffset += take * tupleBytes;
            if (carriedOffset + tupleBytes > carried.payloadLength()) {
                endpoint.release(carried);
                carried = null;
            }
        }
        return filled;
    }

    /**
     * The next received buffer's tuples, in place: releases the buffer the previous call handed out, waits for the
     * next one with data and returns its tuple count; the tuples are {@link #inPlace()}{@code [0, count)}, readable
     * until the next call of this method or {@link #next}. Returns 0 only at the end of the stream. Must not be called
     * while {@link #next} has left part of a buffer.
     *
     * @throws dev.faro.fabric.FaroException {@code NETWORK} when the shuffle failed
     */
    public int nextInPlace() {
        releaseLent();
        if (carried != null) {
            throw new IllegalStateException("next() left part of a buffer: carriedOffset=" + carriedOffset);
        }
        while (!finished) {
            ShuffleBuffer buffer = endpoint.getData();
            if (buffer == null) {
                finished = true;
                break;
            }
            int tuples = buffer.payloadLength() / tupleBytes;
            if (tuples > 0) {
                carried = buffer;
                carriedOffset = 0;
                lent = true;
                return tuples;
            }
            endpoint.release(buffer);
        }
        return 0;
    }

    /** The payload of the buffer {@link #nextInPlace} handed out (its tuples start at 0); null when none is out. */
    public MemorySegment inPlace() {
        return lent ? carried.payload() : null;
    }

    private void releaseLent() {
        if (lent) {
            lent = false;
            endpoint.release(carried);
            carried = null;
        }
    }

    /** Whether the stream has ended (after {@link #next} returned 0). */
    public boolean isFinished() {
        return finished && carried == null;
    }
}
