package dev.faro.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotWriterTest {

    @Test
    void writesAPng(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("plots/sweep.png");
        PlotWriter.writeSizeSweep(
                file,
                "title",
                "GB/s",
                List.of(
                        new PlotWriter.Series("op", List.of(64L, 4096L, 1L << 20), List.of(0.5, 4.0, 9.0), false),
                        new PlotWriter.Series("memcpy", List.of(64L, 1L << 20), List.of(1.0, 10.0), true)));
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes.length).isGreaterThan(1000);
        assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("PNG");
    }

    @Test
    void labelsWholePowersOfTwoOnly() {
        assertThat(PlotWriter.sizeLabel(6)).isEqualTo("64 B");
        assertThat(PlotWriter.sizeLabel(20)).isEqualTo("1 MiB");
        assertThat(PlotWriter.sizeLabel(6.5)).isEmpty();
    }
}
