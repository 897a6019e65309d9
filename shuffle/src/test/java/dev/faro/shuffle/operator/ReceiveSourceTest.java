package dev.faro.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ReceiveSource#nextInPlace}: each buffer's tuples are read where they arrived, the buffer is released at the
 * next call (not before), empty buffers are skipped, and the end of the stream releases the last one.
 */
class ReceiveSourceTest {

    private static final int TUPLE_BYTES = 16;

    @Test
    void inPlaceHandsOutEachBufferUntilTheNextCallAndSkipsEmptyOnes() {
        try (Arena arena = Arena.ofConfined()) {
            QueuedEndpoint endpoint = new QueuedEndpoint();
            ShuffleBuffer first = endpoint.add(arena, 0, 3);
            ShuffleBuffer empty = endpoint.add(arena, 1, 0);
            ShuffleBuffer second = endpoint.add(arena, 2, 2);
            ReceiveSource source = new ReceiveSource(endpoint, TUPLE_BYTES);

            assertThat(source.nextInPlace()).isEqualTo(3);
            assertThat(endpoint.released).isEmpty();
            assertThat(values(source.inPlace(), 3)).containsExactly(0L, 1L, 2L);

            assertThat(source.nextInPlace()).isEqualTo(2);
            assertThat(endpoint.released).containsExactly(first, empty);
            assertThat(values(source.inPlace(), 2)).containsExactly(200L, 201L);

            assertThat(source.nextInPlace()).isZero();
            assertThat(endpoint.released).containsExactly(first, empty, second);
            assertThat(source.inPlace()).isNull();
            assertThat(source.isFinished()).isTrue();
            assertThat(source.nextInPlace()).isZero();
        }
    }

    @Test
    void inPlaceIsRefusedWhileACopyLeftPartOfABuffer() {
        try (Arena arena = Arena.ofConfined()) {
            QueuedEndpoint endpoint = new QueuedEndpoint();
            endpoint.add(arena, 0, 3);
            ReceiveSource source = new ReceiveSource(endpoint, TUPLE_BYTES);
            assertThat(source.next(arena.allocate(2L * TUPLE_BYTES))).isEqualTo(2);
            assertThatThrownBy(source::nextInPlace)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("carriedOffset=32");
        }
    }

    /** The second word of each tuple: the buffer's index × 100 + the tuple's place. */
    private static List<Long> values(MemorySegment payload, int tuples) {
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < tuples; i++) {
            values.add(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * TUPLE_BYTES + 8));
        }
        return values;
    }

    /** Hands out the buffers added, in order, then null; records releases. */
    private static final class QueuedEndpoint implements ReceiveEndpoint {
        private final ArrayDeque<ShuffleBuffer> queue = new ArrayDeque<>();
        final List<ShuffleBuffer> released = new ArrayList<>();

        ShuffleBuffer add(Arena arena, int index, int tuples) {
            ShuffleBuffer buffer =
                    new ShuffleBuffer(index, arena.allocate(MessageHeaderDescriptor.LENGTH + 4L * TUPLE_BYTES));
            for (int i = 0; i < tuples; i++) {
                buffer.payload().set(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * TUPLE_BYTES + 8, index * 100L + i);
            }
            buffer.received(StreamState.MORE_DATA, 0, 0, tuples * TUPLE_BYTES, 0);
            queue.add(buffer);
            return buffer;
        }

        @Override
        public int id() {
            return 0;
        }

        @Override
        public ShuffleBuffer getData() {
            return queue.poll();
        }

        @Override
        public void release(ShuffleBuffer buffer) {
            released.add(buffer);
        }

        @Override
        public void close() {}
    }
}
