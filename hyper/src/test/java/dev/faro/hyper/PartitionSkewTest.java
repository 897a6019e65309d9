package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** V2 of the digest: Zipf keys hash-partitioned into the classic exchange's 240 units against hybrid's 6 servers. */
class PartitionSkewTest {

    @Test
    void onePartitionIsAlwaysFair() {
        assertThat(PartitionSkew.maxOverFair(0.84, 1_000, 1)[0]).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void theClosedFormTailMatchesTheSumItReplaces() {
        double sum = 0;
        for (long k = 1_001; k <= 2_000_000; k++) {
            sum += Math.pow(k, -0.84);
        }
        assertThat(PartitionSkew.tailWeight(0.84, 1_000, 2_000_000)).isCloseTo(sum, within(sum * 1e-6));
        double harmonic = 0;
        for (long k = 11; k <= 100_000; k++) {
            harmonic += 1.0 / k;
        }
        assertThat(PartitionSkew.tailWeight(1.0, 10, 100_000)).isCloseTo(harmonic, within(harmonic * 1e-4));
    }

    @Test
    void uniformKeysOverManyKeysAreNearlyEven() {
        double[] ratios = PartitionSkew.maxOverFair(0, 1_000_000, 6, 240);
        assertThat(ratios[0]).isBetween(1.0, 1.01);
        assertThat(ratios[1]).isBetween(1.0, 1.10);
    }

    /** The paper: at z = 0.84 the classic unit gets more than 2× its share, the hybrid unit +2.8 %. */
    @Test
    void zipfPointEightFourOverABillionKeysOverloadsClassicUnitsNotServers() {
        double[] ratios = PartitionSkew.maxOverFair(0.84, 1_000_000_000L, 240, 6);
        assertThat(ratios[0]).isGreaterThan(2.0);
        assertThat(ratios[1]).isBetween(1.0, 1.06);
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> PartitionSkew.maxOverFair(-1, 10, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PartitionSkew.maxOverFair(0.84, 0, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PartitionSkew.maxOverFair(0.84, 10, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
