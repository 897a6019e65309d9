package dev.faro.zerosided.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The consumer buffer a node's receiving threads share: items taken in ring order, released in any order, the tail
 * word (what the switch reads) moving only over the released prefix; end of stream once every item was taken.
 */
class SharedConsumerRingTest {

    private static final int CAPACITY = 4;
    private static final int ITEM = 16;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Test
    void tailMovesOnlyOverTheReleasedPrefix() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(ZeroSidedBufferDescriptor.lengthBytes(CAPACITY, ITEM), 8);
            SharedConsumerRing ring = new SharedConsumerRing(segment, CAPACITY, ITEM);
            assertThat(ring.tryTake()).isEqualTo(SharedConsumerRing.NONE);
            switchDelivers(segment, 3, false);
            long first = ring.tryTake();
            long second = ring.tryTake();
            long third = ring.tryTake();
            assertThat(List.of(first, second, third)).containsExactly(0L, 1L, 2L);
            assertThat(ring.tryTake()).isEqualTo(SharedConsumerRing.NONE);

            ring.release(second);
            assertThat(tail(segment)).as("item 0 still held").isZero();
            ring.release(third);
            assertThat(tail(segment)).isZero();
            ring.release(first);
            assertThat(tail(segment)).as("0, 1, 2 all released").isEqualTo(3);
            assertThat(ring.fullyReleased()).isTrue();
            assertThatThrownBy(() -> ring.release(first)).isInstanceOf(IllegalArgumentException.class);

            switchDelivers(segment, 3, true);
            assertThat(ring.tryTake()).isEqualTo(SharedConsumerRing.END_OF_STREAM);
        }
    }

    @Test
    void concurrentThreadsTakeEveryItemOnceAndTheRingWraps() throws Exception {
        int items = 5_000;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment segment = arena.allocate(ZeroSidedBufferDescriptor.lengthBytes(CAPACITY, ITEM), 8);
            SharedConsumerRing ring = new SharedConsumerRing(segment, CAPACITY, ITEM);
            ConcurrentLinkedQueue<Long> seen = new ConcurrentLinkedQueue<>();
            AtomicLong sum = new AtomicLong();
            List<Thread> consumers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                consumers.add(Thread.ofPlatform().start(() -> {
                    while (true) {
                        long position = ring.tryTake();
                        if (position == SharedConsumerRing.END_OF_STREAM) {
                            return;
                        }
                        if (position < 0) {
                            Thread.onSpinWait();
                            continue;
                        }
                        long value = segment.get(WORD, ring.slotOffset(position));
                        seen.add(value);
                        sum.addAndGet(value);
                        if (ThreadLocalRandom.current().nextInt(4) == 0) {
                            Thread.yield(); // hold it a while: later items are released first
                        }
                        ring.release(position);
                    }
                }));
            }
            // the switch's part: write an item into a free slot, then raise the head
            for (long item = 0; item < items; item++) {
                while (item - tail(segment) == CAPACITY) {
                    Thread.onSpinWait();
                }
                segment.set(WORD, ring.slotOffset(item), item);
                switchDelivers(segment, item + 1, false);
            }
            switchDelivers(segment, items, true);
            for (Thread consumer : consumers) {
                consumer.join(60_000);
            }
            assertThat(seen).hasSize(items).doesNotHaveDuplicates();
            assertThat(sum.get()).isEqualTo((long) items * (items - 1) / 2);
            assertThat(tail(segment)).isEqualTo(items);
        }
    }

    private static void switchDelivers(MemorySegment segment, long head, boolean ended) {
        WORD.varHandle()
                .setRelease(
                        segment,
                        (long) ZeroSidedBufferDescriptor.HEAD_OFFSET,
                        ended ? head | ZeroSidedBufferDescriptor.END_OF_STREAM_BIT : head);
    }

    private static long tail(MemorySegment segment) {
        return (long) WORD.varHandle().getAcquire(segment, (long) ZeroSidedBufferDescriptor.TAIL_OFFSET);
    }
}
