package dev.faro.txn.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The generated lock sets match the statistics ETH19 §5.4.1 publishes for its MySQL traces. */
class TpccLockSetsTest {

    private static final int TRANSACTIONS = 50_000;

    private record Statistics(
            double locksPerTransaction, double warehousesPerTransaction, Map<TpccTransactionType, Double> mix) {}

    private static Statistics measure(TpccIsolation isolation) {
        TpccLockSets generator = new TpccLockSets(8, isolation);
        SplittableRandom random = new SplittableRandom(5);
        long locks = 0;
        long warehouses = 0;
        Map<TpccTransactionType, Integer> types = new EnumMap<>(TpccTransactionType.class);
        Set<Integer> touched = new HashSet<>();
        long[] count = new long[1];
        for (int i = 0; i < TRANSACTIONS; i++) {
            touched.clear();
            count[0] = 0;
            int home = i % 8;
            TpccTransactionType type = generator.next(random, home, (resource, intent) -> {
                count[0]++;
                touched.add(TpccLockSets.warehouseOf(resource));
                assertThat(resource).isBetween(0L, 8L * TpccLockSets.RESOURCES_PER_WAREHOUSE - 1);
            });
            locks += count[0];
            warehouses += Math.max(1, touched.size());
            types.merge(type, 1, Integer::sum);
            if (count[0] > 0) {
                assertThat(touched).as("home-warehouse affinity").contains(home);
            }
        }
        Map<TpccTransactionType, Double> mix = new EnumMap<>(TpccTransactionType.class);
        types.forEach((type, n) -> mix.put(type, n * 100.0 / TRANSACTIONS));
        return new Statistics((double) locks / TRANSACTIONS, (double) warehouses / TRANSACTIONS, mix);
    }

    @Test
    void serializableTakesAbout53LocksPerTransactionInTheStandardMix() {
        Statistics statistics = measure(TpccIsolation.SERIALIZABLE);
        System.out.printf(
                "[tpcc] serializable: %.1f locks/tx, %.3f warehouses/tx%n",
                statistics.locksPerTransaction(), statistics.warehousesPerTransaction());
        assertThat(statistics.locksPerTransaction()).isCloseTo(53.2, within(53.2 * 0.05));
        assertThat(statistics.warehousesPerTransaction()).isCloseTo(1.1, within(0.05));
        for (TpccTransactionType type : TpccTransactionType.values()) {
            assertThat(statistics.mix().get(type)).as("%s share", type).isCloseTo(type.percent(), within(0.5));
        }
    }

    @Test
    void readCommittedTakesAbout28LocksPerTransaction() {
        Statistics statistics = measure(TpccIsolation.READ_COMMITTED);
        System.out.printf("[tpcc] read committed: %.1f locks/tx%n", statistics.locksPerTransaction());
        assertThat(statistics.locksPerTransaction()).isCloseTo(27.9, within(27.9 * 0.05));
    }

    @Test
    void sameSeedSameLockSets() {
        StringBuilder first = new StringBuilder();
        StringBuilder second = new StringBuilder();
        TpccLockSets a = new TpccLockSets(4, TpccIsolation.SERIALIZABLE);
        TpccLockSets b = new TpccLockSets(4, TpccIsolation.SERIALIZABLE);
        SplittableRandom ra = new SplittableRandom(1);
        SplittableRandom rb = new SplittableRandom(1);
        for (int i = 0; i < 100; i++) {
            a.next(
                    ra,
                    2,
                    (resource, intent) -> first.append(resource).append(intent).append(','));
            b.next(
                    rb,
                    2,
                    (resource, intent) -> second.append(resource).append(intent).append(','));
        }
        assertThat(first.toString()).isEqualTo(second.toString());
    }

    @Test
    void everyResourceHasTheLockLevelOfItsTable() {
        long second = TpccLockSets.RESOURCES_PER_WAREHOUSE; // warehouse 1
        assertThat(TpccLockSets.levelOf(second)).isEqualTo(TpccLockSets.LEVELS.indexOf("warehouse row"));
        assertThat(TpccLockSets.levelOf(second + 1)).isEqualTo(TpccLockSets.LEVELS.indexOf("district rows"));
        assertThat(TpccLockSets.levelOf(second + 10)).isEqualTo(TpccLockSets.LEVELS.indexOf("district rows"));
        for (int table = 16; table <= 24; table++) {
            assertThat(TpccLockSets.levelOf(second + table)).isEqualTo(TpccLockSets.LEVELS.indexOf("table IS/IX"));
        }
        // every intention lock the generator takes is on a table granule, every S/X on a row
        TpccLockSets generator = new TpccLockSets(4, TpccIsolation.SERIALIZABLE);
        SplittableRandom random = new SplittableRandom(3);
        int[] perLevel = new int[TpccLockSets.LEVELS.size()];
        for (int i = 0; i < 2_000; i++) {
            generator.next(random, i % 4, (resource, intent) -> {
                int level = TpccLockSets.levelOf(resource);
                perLevel[level]++;
                boolean intention = intent == LockIntent.INTENTION_SHARED || intent == LockIntent.INTENTION_EXCLUSIVE;
                assertThat(level == TpccLockSets.LEVELS.indexOf("table IS/IX"))
                        .as("%s on resource %d", intent, resource)
                        .isEqualTo(intention);
            });
        }
        for (int level = 0; level < perLevel.length; level++) {
            assertThat(perLevel[level]).as(TpccLockSets.LEVELS.get(level)).isPositive();
        }
    }
}
