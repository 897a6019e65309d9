package dev.faro.txn.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The compatibility matrix and the group mode, exactly as ETH19 Table 2.1 prints them. */
class LockModeTest {

    /** Table 2.1a, row = requested, column = granted, in the order NL IS IX S SIX X. */
    private static final String[] TABLE_2_1A = {
        "++++++", // NL
        "+++++.", // IS
        "+++...", // IX
        "++.+..", // S
        "++....", // SIX
        "+.....", // X
    };

    static Stream<Arguments> allPairs() {
        Stream.Builder<Arguments> pairs = Stream.builder();
        for (LockMode requested : LockMode.values()) {
            for (LockMode granted : LockMode.values()) {
                pairs.add(Arguments.of(
                        requested, granted, TABLE_2_1A[requested.ordinal()].charAt(granted.ordinal()) == '+'));
            }
        }
        return pairs.build();
    }

    @ParameterizedTest(name = "{0} requested while {1} granted: {2}")
    @MethodSource("allPairs")
    void compatibilityMatchesTable21a(LockMode requested, LockMode granted, boolean compatible) {
        assertThat(requested.isCompatibleWith(granted)).isEqualTo(compatible);
        assertThat(requested.compatibleWithGranted(granted.bit())).isEqualTo(compatible);
        // the matrix is symmetric
        assertThat(granted.isCompatibleWith(requested)).isEqualTo(compatible);
    }

    @ParameterizedTest(name = "{0} requested while {1} granted: {2}")
    @MethodSource("allPairs")
    void thirtySixPairsAgainstTheLockTable(LockMode requested, LockMode granted, boolean compatible) {
        LockTable table = new LockTable(0, 4, 2, DeadlockPolicy.NO_WAIT, 1_000_000, new RecordingSink());
        assertThat(table.request(0, 1, 1, 2, granted, 0)).isEqualTo(LockTable.GRANTED);
        assertThat(table.request(1, 2, 2, 2, requested, 0))
                .isEqualTo(compatible ? LockTable.GRANTED : LockTable.DENIED);
    }

    @Test
    void groupModeMatchesTable21b() {
        assertThat(LockMode.groupMode(0)).isEqualTo(LockMode.NL);
        assertThat(LockMode.groupMode(LockMode.NL.bit())).isEqualTo(LockMode.NL);
        assertThat(LockMode.groupMode(LockMode.IS.bit())).isEqualTo(LockMode.IS);
        assertThat(LockMode.groupMode(LockMode.IX.bit() | LockMode.IS.bit())).isEqualTo(LockMode.IX);
        assertThat(LockMode.groupMode(LockMode.S.bit() | LockMode.IS.bit())).isEqualTo(LockMode.S);
        assertThat(LockMode.groupMode(LockMode.SIX.bit() | LockMode.IS.bit())).isEqualTo(LockMode.SIX);
        assertThat(LockMode.groupMode(LockMode.X.bit())).isEqualTo(LockMode.X);
    }

    @Test
    void compatibleWithGroupModeIsCompatibleWithEveryGrantedMode() {
        for (int modes = 0; modes < 1 << LockMode.COUNT; modes++) {
            if (!pairwiseCompatible(modes)) {
                continue;
            }
            LockMode group = LockMode.groupMode(modes);
            for (LockMode requested : LockMode.values()) {
                assertThat(requested.compatibleWithGranted(modes))
                        .as("%s against granted set %s (group %s)", requested, Integer.toBinaryString(modes), group)
                        .isEqualTo(requested.isCompatibleWith(group));
            }
        }
    }

    @Test
    void coversIsReflexiveAndXCoversEverything() {
        for (LockMode mode : LockMode.values()) {
            assertThat(mode.covers(mode)).isTrue();
            assertThat(LockMode.X.covers(mode)).isTrue();
            assertThat(mode.covers(LockMode.NL)).isTrue();
        }
        assertThat(LockMode.SIX.covers(LockMode.S)).isTrue();
        assertThat(LockMode.SIX.covers(LockMode.IX)).isTrue();
        assertThat(LockMode.S.covers(LockMode.IX)).isFalse();
        assertThat(LockMode.IX.covers(LockMode.S)).isFalse();
    }

    @Test
    void wireCodesRoundTrip() {
        for (LockMode mode : LockMode.values()) {
            assertThat(LockMode.ofCode(mode.ordinal())).isEqualTo(mode);
        }
    }

    private static boolean pairwiseCompatible(int modes) {
        for (LockMode a : LockMode.values()) {
            for (LockMode b : LockMode.values()) {
                if ((modes & a.bit()) != 0 && (modes & b.bit()) != 0 && !a.isCompatibleWith(b)) {
                    return false;
                }
            }
        }
        return true;
    }
}
