package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunSampleTest {

    @Test
    void survivesTheProtocolUnchanged() {
        RunSample sample =
                new RunSample(new Measurement(6400, 100, 2_000, 7, 3), new Measurement(12800, 200, 1_000, 0, 0));
        assertThat(sample.encode()).doesNotContain(" ");
        assertThat(RunSample.decode(sample.encode())).isEqualTo(sample);
    }

    @Test
    void convertsToGigabytesAndMegaMessagesPerSecond() {
        Measurement measurement = new Measurement(3_000_000_000L, 1_000_000, 1_000_000_000L, 0, 0);
        assertThat(measurement.gigabytesPerSecond()).isEqualTo(3.0);
        assertThat(measurement.megaMessagesPerSecond()).isEqualTo(1.0);
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> RunSample.decode("1,2,3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Measurement.decode("1,2,0,0,0")).isInstanceOf(IllegalArgumentException.class);
    }
}
