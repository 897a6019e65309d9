package dev.faro.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BroadcastRuleTest {

    @Test
    void thePapersClusterBroadcastsAboveFiveHybridAndAbove239Classic() {
        long hybrid = 6;
        long classic = 6 * 40;
        assertThat(BroadcastRule.threshold(hybrid)).isEqualTo(5);
        assertThat(BroadcastRule.threshold(classic)).isEqualTo(239);
        assertThat(BroadcastRule.broadcasts(1, 6, hybrid)).isTrue();
        assertThat(BroadcastRule.broadcasts(1, 5, hybrid)).isFalse();
        assertThat(BroadcastRule.broadcasts(1, 6, classic)).isFalse();
        assertThat(BroadcastRule.broadcasts(1, 240, classic)).isTrue();
    }

    @Test
    void broadcastsExactlyWhenABroadcastSendsFewerBytes() {
        for (long units = 1; units <= 300; units += 7) {
            for (double ratio = 0.25; ratio < 400; ratio *= 1.37) {
                double smaller = 1000;
                double larger = smaller * ratio;
                boolean cheaper = BroadcastRule.broadcastBytes(smaller, units)
                        < BroadcastRule.repartitionBytes(smaller, larger, units);
                if (units > 1) {
                    assertThat(BroadcastRule.broadcasts(smaller, larger, units))
                            .as("units %d ratio %.2f", units, ratio)
                            .isEqualTo(cheaper);
                }
            }
        }
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> BroadcastRule.threshold(0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> BroadcastRule.broadcasts(0, 1, 2)).hasMessageContaining("positive");
        assertThatThrownBy(() -> BroadcastRule.broadcasts(1, Double.NaN, 2)).hasMessageContaining("positive");
    }
}
