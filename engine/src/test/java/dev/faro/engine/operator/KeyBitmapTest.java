package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link KeyBitmap} holds exactly the keys of the rows not skipped, and exists only for a narrow enough range. */
class KeyBitmapTest {

    @Test
    void containsExactlyTheKeysOfTheRowsNotSkipped() {
        Random random = new Random(3);
        long[] values = new long[5000];
        boolean[] skip = new boolean[values.length];
        Set<Long> keys = new HashSet<>();
        for (int row = 0; row < values.length; row++) {
            values[row] = random.nextInt(100_000) - 30_000;
            skip[row] = random.nextInt(7) == 0;
            if (!skip[row]) {
                keys.add(values[row]);
            }
        }
        KeyBitmap bitmap = KeyBitmap.of(values, skip, values.length);
        assertThat(bitmap).isNotNull();
        for (long value = -40_000; value < 80_000; value++) {
            assertThat(bitmap.contains(value)).as("key %d", value).isEqualTo(keys.contains(value));
        }
        assertThat(bitmap.contains(Long.MIN_VALUE)).isFalse();
        assertThat(bitmap.contains(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void noBitmapWithoutRowsOrForAWideRange() {
        assertThat(KeyBitmap.of(new long[0], new boolean[0], 0)).isNull();
        assertThat(KeyBitmap.of(new long[] {1, 2}, new boolean[] {true, true}, 2))
                .isNull();
        assertThat(KeyBitmap.of(new long[] {0, KeyBitmap.MAX_BITS}, new boolean[2], 2))
                .isNull();
        assertThat(KeyBitmap.of(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, new boolean[2], 2))
                .isNull();
        KeyBitmap widest = KeyBitmap.of(new long[] {-1, KeyBitmap.MAX_BITS - 2}, new boolean[2], 2);
        assertThat(widest).isNotNull();
        assertThat(widest.contains(-1)).isTrue();
        assertThat(widest.contains(KeyBitmap.MAX_BITS - 2)).isTrue();
        assertThat(widest.contains(KeyBitmap.MAX_BITS - 1)).isFalse();
        assertThat(widest.contains(0)).isFalse();
        KeyBitmap one = KeyBitmap.of(new long[] {Long.MAX_VALUE, 5}, new boolean[] {false, true}, 2);
        assertThat(one.contains(Long.MAX_VALUE)).isTrue();
        assertThat(one.contains(Long.MIN_VALUE)).isFalse();
        assertThat(one.contains(5)).isFalse();
    }
}
