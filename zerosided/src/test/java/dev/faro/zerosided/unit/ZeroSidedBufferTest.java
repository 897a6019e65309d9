package dev.faro.zerosided.unit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The PU library alone: the switch's part is played by hand (its pointer WRITEs are plain stores here). */
class ZeroSidedBufferTest {

    @Test
    void producerFillsUntilTheSwitchFreesSlots() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(ZeroSidedBufferDescriptor.lengthBytes(4, 16), 128);
            ZeroSidedBuffer producer = ZeroSidedBuffer.producer(segment, 4, 16, null);
            MemorySegment item = arena.allocate(16);
            for (int i = 0; i < 4; i++) {
                item.set(ValueLayout.JAVA_LONG, 0, i);
                assertThat(producer.offer(item, 0)).isTrue();
            }
            assertThat(producer.offer(item, 0)).as("full").isFalse();
            assertThat(head(segment)).isEqualTo(4);
            assertThat(segment.get(ValueLayout.JAVA_LONG, ZeroSidedBufferDescriptor.SLOTS_OFFSET + 16 * 3))
                    .isEqualTo(3);
            segment.set(ValueLayout.JAVA_LONG, ZeroSidedBufferDescriptor.TAIL_OFFSET, 1); // the switch frees one
            assertThat(producer.claimSlot()).isEqualTo(ZeroSidedBufferDescriptor.SLOTS_OFFSET);
            producer.push();
            producer.finish();
            long word = head(segment);
            assertThat(ZeroSidedBufferDescriptor.count(word)).isEqualTo(5);
            assertThat(ZeroSidedBufferDescriptor.ended(word)).isTrue();
            assertThat(producer.communicationNanos()).isZero();
        }
    }

    @Test
    void consumerSeesItemsOnlyAfterTheHeadAndThenTheEnd() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(ZeroSidedBufferDescriptor.lengthBytes(2, 8), 128);
            long[] rung = new long[2];
            ZeroSidedBuffer consumer = ZeroSidedBuffer.consumer(segment, 2, 8, (offset, value) -> {
                rung[0] = offset;
                rung[1] = value;
            });
            assertThat(consumer.nextSlot()).isEqualTo(ZeroSidedBuffer.NONE);
            segment.set(ValueLayout.JAVA_LONG, ZeroSidedBufferDescriptor.HEAD_OFFSET, 1);
            assertThat(consumer.nextSlot()).isEqualTo(ZeroSidedBufferDescriptor.SLOTS_OFFSET);
            consumer.pop();
            assertThat(rung).containsExactly(ZeroSidedBufferDescriptor.TAIL_OFFSET, 1);
            assertThat(segment.get(ValueLayout.JAVA_LONG, ZeroSidedBufferDescriptor.TAIL_OFFSET))
                    .isEqualTo(1);
            assertThat(consumer.nextSlot()).isEqualTo(ZeroSidedBuffer.NONE);
            segment.set(
                    ValueLayout.JAVA_LONG,
                    ZeroSidedBufferDescriptor.HEAD_OFFSET,
                    1 | ZeroSidedBufferDescriptor.END_OF_STREAM_BIT);
            assertThat(consumer.nextSlot()).isEqualTo(ZeroSidedBuffer.END_OF_STREAM);
            assertThat(consumer.communicationNanos()).isPositive();
        }
    }

    @Test
    void theLibraryHasNoOperationThatMovesDataBetweenUnits() {
        // everything public works on local memory; the only outward type is the Doorbell (a pointer report)
        assertThat(Arrays.stream(ZeroSidedBuffer.class.getDeclaredFields())
                        .filter(f -> !Modifier.isStatic(f.getModifiers()))
                        .map(f -> f.getType().getName()))
                .allMatch(type -> !type.startsWith("dev.faro.zerosided.link")
                        && !type.startsWith("dev.faro.zerosided.nic")
                        && !type.startsWith("dev.faro.zerosided.switching"));
    }

    private static long head(MemorySegment segment) {
        return segment.get(ValueLayout.JAVA_LONG, ZeroSidedBufferDescriptor.HEAD_OFFSET);
    }
}
