package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.zerosided.switching.ForwardingProbe;
import dev.faro.zerosided.switching.SwitchConfig;
import org.junit.jupiter.api.Test;

/** Runs the forwarding-rate benchmark's body once: the switch completes transfers against the probe's perfect NICs. */
class ForwardingProbeTest {

    @Test
    void switchForwardsThroughThePerfectProbe() {
        ForwardingProbe.Result result = ForwardingProbe.measure(SwitchConfig.DEFAULT, 4096, 200_000_000);
        assertThat(result.packetsPerSecond()).isPositive();
        assertThat(result.statistics().transfers()).isPositive();
        // a perfect network never loses: a retry only follows a pause of this thread longer than the timeout
        assertThat(result.statistics().retries())
                .isLessThanOrEqualTo(result.statistics().transfers() / 100 + 5);
        assertThat(result.statistics().payloadHighWaterBytes()).isEqualTo(1024);
        System.out.printf(
                "[zerosided] switch forwarding rate: %.0f packets/s, %.2f GB/s payload, %d transfers, %d retries%n",
                result.packetsPerSecond(),
                result.payloadBytesPerSecond() / 1e9,
                result.statistics().transfers(),
                result.statistics().retries());
    }
}
