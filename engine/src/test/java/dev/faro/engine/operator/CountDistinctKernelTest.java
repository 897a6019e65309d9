package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.AggregateFunction;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * COUNT(DISTINCT x) of an exact argument without boxing ({@link LongCountDistinctAccumulator}) counts as the boxed
 * sets per group ({@link CountDistinctAccumulator}) do: BIGINT and INTEGER arguments with and without NULLs, few and
 * many groups, empty batches, growth past the initial capacity, and merging threads' accumulators group by group.
 */
class CountDistinctKernelTest {

    @Test
    void theUnboxedCountEqualsTheBoxedSets() {
        Random random = new Random(16);
        for (boolean ints : new boolean[] {false, true}) {
            for (boolean withNulls : new boolean[] {false, true}) {
                for (int groups : new int[] {1, 40, 5000}) {
                    List<Accumulator> unboxed = new ArrayList<>();
                    List<Accumulator> boxed = new ArrayList<>();
                    for (int part = 0; part < 3; part++) {
                        Accumulator fast = new LongCountDistinctAccumulator();
                        Accumulator reference = new CountDistinctAccumulator();
                        for (int rows : new int[] {0, 3000, 0, 20_000, 1}) {
                            int[] groupIds = new int[rows];
                            for (int i = 0; i < rows; i++) {
                                groupIds[i] = random.nextInt(groups);
                            }
                            Vector argument = argument(random, rows, ints, withNulls);
                            fast.ensureGroups(groups);
                            reference.ensureGroups(groups);
                            fast.addRaw(groupIds, argument, rows);
                            reference.addRaw(groupIds, argument, rows);
                        }
                        assertThat(values(fast.result(0, groups)))
                                .as("ints %s, nulls %s, %d groups", ints, withNulls, groups)
                                .isEqualTo(values(reference.result(0, groups)));
                        unboxed.add(fast);
                        boxed.add(reference);
                    }
                    // merged into a fresh accumulator, each part's group g into group (g * 7) % groups
                    Accumulator fastMerged = new LongCountDistinctAccumulator();
                    Accumulator referenceMerged = new CountDistinctAccumulator();
                    fastMerged.ensureGroups(groups);
                    referenceMerged.ensureGroups(groups);
                    for (int part = 0; part < unboxed.size(); part++) {
                        for (int group = 0; group < groups; group++) {
                            fastMerged.merge((group * 7) % groups, unboxed.get(part), group);
                            referenceMerged.merge((group * 7) % groups, boxed.get(part), group);
                        }
                    }
                    assertThat(values(fastMerged.result(0, groups)))
                            .isEqualTo(values(referenceMerged.result(0, groups)));
                }
            }
        }
    }

    @Test
    void exactArgumentsGetTheUnboxedKernelOthersTheSets() {
        for (DataType type : List.of(DataType.BIGINT, DataType.INTEGER, DataType.DATE, DataType.decimal(2))) {
            assertThat(Accumulator.create(AggregateFunction.COUNT_DISTINCT, type))
                    .isInstanceOf(LongCountDistinctAccumulator.class);
        }
        assertThat(Accumulator.create(AggregateFunction.COUNT_DISTINCT, DataType.varchar(10)))
                .isInstanceOf(CountDistinctAccumulator.class);
        assertThat(Accumulator.create(AggregateFunction.COUNT_DISTINCT, DataType.DOUBLE))
                .isInstanceOf(CountDistinctAccumulator.class);
    }

    private static Vector argument(Random random, int rows, boolean ints, boolean withNulls) {
        boolean[] nulls = new boolean[rows];
        long[] longs = new long[rows];
        int[] values = new int[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextInt(300) - 100;
            longs[i] = values[i] * 1_000_003L;
            nulls[i] = withNulls && random.nextInt(6) == 0;
        }
        return ints
                ? new IntVector(DataType.INTEGER, values, withNulls ? nulls : null)
                : new LongVector(DataType.BIGINT, longs, withNulls ? nulls : null);
    }

    private static List<Object> values(Vector vector) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < vector.size(); i++) {
            values.add(vector.getObject(i));
        }
        return values;
    }
}
