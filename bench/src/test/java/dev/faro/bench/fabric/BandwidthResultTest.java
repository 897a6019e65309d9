package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.faro.bench.report.Medians;
import java.util.List;
import org.junit.jupiter.api.Test;

class BandwidthResultTest {

    private static RunSample sample(long operationNanos, long memcpyNanos) {
        return new RunSample(
                new Measurement(1_000_000, 1000, operationNanos, 10, 1),
                new Measurement(1_000_000, 1000, memcpyNanos, 0, 0));
    }

    @Test
    void takesMediansAndExtremesAndSumsTheInitiatorsCounters() {
        // operation: 1.0, 0.5, 2.0 GB/s; memcpy: 2.0, 1.0, 4.0 GB/s
        BandwidthResult result = BandwidthResult.of(
                FabricOperation.RC_SEND,
                1000,
                List.of(sample(1_000_000, 500_000), sample(2_000_000, 1_000_000), sample(500_000, 250_000)),
                5,
                3000,
                0,
                0);
        assertThat(result.gigabytesPerSecond()).isEqualTo(1.0);
        assertThat(result.megaMessagesPerSecond()).isEqualTo(1.0);
        assertThat(result.memcpyGigabytesPerSecond()).isEqualTo(2.0);
        assertThat(result.ratioToMemcpy()).isEqualTo(0.5);
        assertThat(result.minGigabytesPerSecond()).isEqualTo(0.5);
        assertThat(result.maxGigabytesPerSecond()).isEqualTo(2.0);
        assertThat(result.counters()).isEqualTo(new BandwidthResult.Counters(30, 3, 5, 3000, 0, 0));
        assertThat(result.runs()).isEqualTo(3);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(Medians.of(new double[] {4, 1, 3, 2})).isCloseTo(2.5, within(1e-12));
        assertThat(Medians.of(new double[] {7})).isEqualTo(7);
    }
}
