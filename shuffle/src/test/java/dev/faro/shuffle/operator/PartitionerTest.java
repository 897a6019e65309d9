package dev.faro.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Partitioner#hashLongKey}: the murmur3-mixed key modulo the group count, one tuple or a vector at a time. */
class PartitionerTest {

    private static final int TUPLES = 4096;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 16, 63, 64})
    void aVectorGetsTheSameGroupsAsOneTupleAtATimeAndAsTheModuloOfTheMixedKey(int groups) {
        Partitioner partitioner = Partitioner.hashLongKey(groups);
        int tupleBytes = 24; // keys at offsets that are not multiples of 16, as in wider rows
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuples =
                    arena.allocate((long) TUPLES * tupleBytes + 4, 8).asSlice(4); // unaligned keys
            SplittableRandom random = new SplittableRandom(groups);
            long[] keys = new long[TUPLES];
            for (int i = 0; i < TUPLES; i++) {
                keys[i] = random.nextLong();
                tuples.set(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * tupleBytes, keys[i]);
            }
            int[] vector = new int[TUPLES];
            partitioner.groups(tuples, 0, tupleBytes, TUPLES, vector);
            int[] fromThird = new int[TUPLES - 3];
            partitioner.groups(tuples, 3L * tupleBytes, tupleBytes, TUPLES - 3, fromThird);
            assertThat(fromThird)
                    .as("a vector that starts inside the table")
                    .containsExactly(Arrays.copyOfRange(vector, 3, TUPLES));
            int[] seen = new int[groups];
            for (int i = 0; i < TUPLES; i++) {
                int expected = (int) Long.remainderUnsigned(Partitioner.mix(keys[i]), groups);
                assertThat(partitioner.group(tuples, (long) i * tupleBytes))
                        .as("tuple %d", i)
                        .isEqualTo(expected);
                assertThat(vector[i]).as("tuple %d in the vector", i).isEqualTo(expected);
                seen[expected]++;
            }
            assertThat(Arrays.stream(seen).min().orElseThrow())
                    .as("tuples in the emptiest group")
                    .isPositive();
        }
    }

    @Test
    void theDefaultVectorMethodCallsTheTupleMethod() {
        Partitioner byFirstByte = (tuples, offset) -> tuples.get(ValueLayout.JAVA_BYTE, offset) & 3;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuples = arena.allocate(10 * 8);
            for (int i = 0; i < 10; i++) {
                tuples.set(ValueLayout.JAVA_BYTE, i * 8L, (byte) i);
            }
            int[] groups = new int[10];
            byFirstByte.groups(tuples, 8, 8, 9, groups);
            assertThat(groups).containsExactly(1, 2, 3, 0, 1, 2, 3, 0, 1, 0);
        }
    }

    @Test
    void aGroupCountBelowOneIsRefused() {
        assertThatThrownBy(() -> Partitioner.hashLongKey(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("groups=0");
    }
}
