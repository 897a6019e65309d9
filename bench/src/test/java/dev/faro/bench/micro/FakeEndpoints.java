package dev.faro.bench.micro;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Endpoints without a fabric for the micro-benchmarks: what SHUFFLE and RECEIVE cost on their own. The send side
 * hands out native buffers and takes them straight back on PUTDATA (counting the bytes); the receive side hands out one
 * filled buffer again and again. Thread-confined; allocation-free after construction.
 */
final class FakeEndpoints {

    private FakeEndpoints() {}

    /** A send endpoint whose PUTDATA recycles the buffer at once. */
    static final class Recycling implements SendEndpoint {
        private final ShuffleBuffer[] free;
        private int freeCount;
        /** Payload bytes given to PUTDATA so far (keeps the work observable). */
        long bytesSent;

        Recycling(Arena arena, int buffers, int bufferBytes) {
            free = new ShuffleBuffer[buffers];
            for (int i = 0; i < buffers; i++) {
                free[i] = new ShuffleBuffer(i, arena.allocate(bufferBytes, 64));
            }
            freeCount = buffers;
        }

        @Override
        public int id() {
            return 0;
        }

        @Override
        public ShuffleBuffer acquire() {
            ShuffleBuffer buffer = free[--freeCount];
            buffer.payloadLength(0);
            return buffer;
        }

        @Override
        public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
            bytesSent += buffer.payloadLength();
            free[freeCount++] = buffer;
        }

        @Override
        public void close() {}
    }

    /** A receive endpoint that returns the same full buffer on every GETDATA. */
    static final class Repeating implements ReceiveEndpoint {
        private final ShuffleBuffer buffer;

        Repeating(Arena arena, int bufferBytes, int tupleBytes) {
            MemorySegment segment = arena.allocate(bufferBytes, 64);
            for (long i = 0; i < segment.byteSize(); i++) {
                segment.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            buffer = new ShuffleBuffer(0, segment);
            int payload = (bufferBytes - MessageHeaderDescriptor.LENGTH) / tupleBytes * tupleBytes;
            buffer.received(StreamState.MORE_DATA, 0, 0, payload, 0);
        }

        @Override
        public int id() {
            return 0;
        }

        @Override
        public ShuffleBuffer getData() {
            return buffer;
        }

        @Override
        public void release(ShuffleBuffer released) {}

        @Override
        public void close() {}
    }
}
