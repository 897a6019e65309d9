package dev.faro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizesTest {

    @Test
    void parsesPlainNumbersAndBinarySuffixes() {
        assertThat(ByteSizes.parse("64")).isEqualTo(64);
        assertThat(ByteSizes.parse("1K")).isEqualTo(1024);
        assertThat(ByteSizes.parse("16k")).isEqualTo(16 * 1024);
        assertThat(ByteSizes.parse("4KiB")).isEqualTo(4096);
        assertThat(ByteSizes.parse("1M")).isEqualTo(1 << 20);
        assertThat(ByteSizes.parse(" 2 MB ")).isEqualTo(2 << 20);
        assertThat(ByteSizes.parse("1G")).isEqualTo(1L << 30);
        assertThat(ByteSizes.parse("100B")).isEqualTo(100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "K", "abc", "0", "-1", "1.5K", "4X", "99999999999999999999", "9999999999G"})
    void rejectsWhatIsNoSize(String text) {
        assertThatThrownBy(() -> ByteSizes.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + text + "'")
                .hasMessageContaining("4K");
    }

    @Test
    void formatsWholeUnitsAndBytes() {
        assertThat(ByteSizes.format(64)).isEqualTo("64 B");
        assertThat(ByteSizes.format(1024)).isEqualTo("1 KiB");
        assertThat(ByteSizes.format(1536)).isEqualTo("1536 B");
        assertThat(ByteSizes.format(1 << 20)).isEqualTo("1 MiB");
        assertThat(ByteSizes.format(1L << 30)).isEqualTo("1 GiB");
        assertThat(ByteSizes.formatCompact(256 << 10)).isEqualTo("256K");
        assertThat(ByteSizes.parse(ByteSizes.formatCompact(64 << 20))).isEqualTo(64 << 20);
    }
}
