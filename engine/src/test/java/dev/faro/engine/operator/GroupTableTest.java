package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Vector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A {@link GroupTable} with one non-string key (the {@link LongGroupSlots} lookup) groups rows exactly as the
 * general table does: the same key beside a constant second key (or twice) goes through the old path.
 * Random keys with and without NULLs, growth past the initial capacity, empty batches, and merging tables (also
 * into a table that reserved room up front).
 */
class GroupTableTest {

    @Test
    void oneLongKeyGroupsAsTheGeneralTable() {
        Random random = new Random(11);
        for (boolean withNulls : new boolean[] {false, true}) {
            for (int distinct : new int[] {1, 50, 40_000}) {
                GroupTable fast = new GroupTable(List.of(DataType.BIGINT));
                GroupTable general = new GroupTable(List.of(DataType.BIGINT, DataType.INTEGER));
                KeyColumns fastKeys = new KeyColumns(new int[] {0});
                KeyColumns generalKeys = new KeyColumns(new int[] {0, 2});
                for (int rows : new int[] {0, 3000, 0, 16_384, 7}) {
                    int[] fastIds = assertSameGroups(
                            batch(random, rows, distinct, withNulls), fast, fastKeys, general, generalKeys);
                    for (int i = 0; i < rows; i++) { // the group's hash is the row hash the old path computes
                        assertThat(fast.hash(fastIds[i])).isEqualTo(fastKeys.hashes[i]);
                    }
                }
                assertThat(render(fast, 0)).isEqualTo(render(general, 0));
            }
        }
    }

    @Test
    void clusteredKeysGroupAsTheGeneralTable() {
        // runs of equal keys (a row takes the group of the row before it), NULLs inside runs, runs across batches
        Random random = new Random(13);
        for (int distinct : new int[] {3, 40_000}) {
            GroupTable fast = new GroupTable(List.of(DataType.BIGINT));
            GroupTable general = new GroupTable(List.of(DataType.BIGINT, DataType.INTEGER));
            KeyColumns fastKeys = new KeyColumns(new int[] {0});
            KeyColumns generalKeys = new KeyColumns(new int[] {0, 2});
            for (int rows : new int[] {0, 3000, 1, 0, 70_000}) {
                assertSameGroups(clustered(random, rows, distinct), fast, fastKeys, general, generalKeys);
            }
            assertThat(render(fast, 0)).isEqualTo(render(general, 0));
        }
    }

    /** {@link #batch}'s columns, column 0 in runs of one to six equal keys (one row in ten NULL, also inside a run). */
    private static Batch clustered(Random random, int rows, int distinct) {
        long[] longs = new long[rows];
        boolean[] nulls = new boolean[rows];
        long key = 0;
        for (int i = 0; i < rows; i++) {
            if (i == 0 || random.nextInt(4) == 0) {
                key = (random.nextInt(distinct) - distinct / 2) * 1_000_003L;
            }
            longs[i] = key;
            nulls[i] = random.nextInt(10) == 0;
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, longs, nulls),
                new IntVector(DataType.INTEGER, new int[rows]),
                new IntVector(DataType.INTEGER, new int[rows]));
    }

    @Test
    void mergingTablesFindsTheSameGroupsAsTheGeneralTable() {
        Random random = new Random(5);
        GroupTable fastTarget = new GroupTable(List.of(DataType.INTEGER));
        GroupTable generalTarget = new GroupTable(List.of(DataType.INTEGER, DataType.INTEGER));
        for (int part = 0; part < 3; part++) {
            GroupTable fast = new GroupTable(List.of(DataType.INTEGER));
            GroupTable general = new GroupTable(List.of(DataType.INTEGER, DataType.INTEGER));
            KeyColumns fastKeys = new KeyColumns(new int[] {1});
            KeyColumns generalKeys = new KeyColumns(new int[] {1, 1});
            Batch batch = batch(random, 5000, 3000, true);
            fastKeys.load(batch);
            generalKeys.load(batch);
            fast.assign(fastKeys);
            general.assign(generalKeys);
            for (int group = 0; group < fast.groupCount(); group++) {
                assertThat(fastTarget.findOrInsert(fast, group)).isEqualTo(generalTarget.findOrInsert(general, group));
            }
        }
        assertThat(fastTarget.groupCount()).isEqualTo(generalTarget.groupCount());
        assertThat(render(fastTarget, 0)).isEqualTo(render(generalTarget, 0));
    }

    @Test
    void aReservedTableMergesAsOneGrownFromTheInitialCapacity() {
        Random random = new Random(9);
        for (List<DataType> types : List.of(List.of(DataType.INTEGER), List.of(DataType.INTEGER, DataType.INTEGER))) {
            for (int reserved : new int[] {1, 2000, 100_000}) {
                GroupTable grown = new GroupTable(types);
                GroupTable reserving = new GroupTable(types);
                reserving.reserve(reserved);
                int[] columns = types.size() == 1 ? new int[] {1} : new int[] {1, 2};
                for (int part = 0; part < 3; part++) {
                    GroupTable source = new GroupTable(types);
                    KeyColumns keys = new KeyColumns(columns);
                    keys.load(batch(random, 20_000, 30_000, true));
                    source.assign(keys);
                    for (int group = 0; group < source.groupCount(); group++) {
                        assertThat(reserving.findOrInsert(source, group))
                                .as("%s, reserved %d", types, reserved)
                                .isEqualTo(grown.findOrInsert(source, group));
                    }
                    reserving.reserve(reserved * (part + 2)); // again, with groups already in it
                }
                assertThat(reserving.groupCount()).isEqualTo(grown.groupCount());
                assertThat(render(reserving, 0)).isEqualTo(render(grown, 0));
            }
        }
    }

    /** Assigns {@code batch} to both tables; asserts the same group per row and count; returns the fast ids. */
    private static int[] assertSameGroups(
            Batch batch, GroupTable fast, KeyColumns fastKeys, GroupTable general, KeyColumns generalKeys) {
        fastKeys.load(batch);
        generalKeys.load(batch);
        int[] fastIds = fast.assign(fastKeys).clone();
        int[] generalIds = general.assign(generalKeys);
        for (int i = 0; i < batch.rowCount(); i++) {
            assertThat(fastIds[i]).as("row %d", i).isEqualTo(generalIds[i]);
        }
        assertThat(fast.groupCount()).isEqualTo(general.groupCount());
        return fastIds;
    }

    private static List<Object> render(GroupTable table, int key) {
        Vector keys = table.keyVector(key, 0, table.groupCount());
        List<Object> values = new ArrayList<>();
        for (int group = 0; group < table.groupCount(); group++) {
            values.add(keys.getObject(group));
        }
        return values;
    }

    /** Column 0: BIGINT keys (negative ones too); 1: INTEGER keys; both with NULLs when asked; 2: INTEGER zeros. */
    private static Batch batch(Random random, int rows, int distinct, boolean withNulls) {
        long[] longs = new long[rows];
        int[] ints = new int[rows];
        boolean[] longNulls = new boolean[rows];
        boolean[] intNulls = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            longs[i] = (random.nextInt(distinct) - distinct / 2) * 1_000_003L;
            ints[i] = random.nextInt(distinct);
            longNulls[i] = withNulls && random.nextInt(10) == 0;
            intNulls[i] = withNulls && random.nextInt(10) == 0;
        }
        return Batch.of(
                rows,
                new LongVector(DataType.BIGINT, longs, withNulls ? longNulls : null),
                new IntVector(DataType.INTEGER, ints, withNulls ? intNulls : null),
                new IntVector(DataType.INTEGER, new int[rows]));
    }
}
