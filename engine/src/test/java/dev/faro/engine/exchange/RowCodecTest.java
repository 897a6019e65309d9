package dev.faro.engine.exchange;

import static dev.faro.engine.exec.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.exec.TestTables;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    private static final Schema SCHEMA = Schema.of(
            new Column("b", DataType.BOOLEAN),
            new Column("i", DataType.INTEGER),
            new Column("l", DataType.BIGINT),
            new Column("x", DataType.DOUBLE),
            new Column("m", DataType.decimal(2)),
            new Column("d", DataType.DATE),
            new Column("s", DataType.varchar(12)),
            new Column("t", DataType.varchar(3)),
            new Column("n", DataType.BIGINT));

    @Test
    void rowsRoundTripWithNullsInEveryType() {
        List<List<Object>> rows = List.of(
                row(true, 7, -5L, 2.5, new BigDecimal("12.34"), "1995-03-15", "hello world!", "abc", null),
                row(null, null, null, null, null, null, null, null, 1L),
                row(
                        false,
                        Integer.MIN_VALUE,
                        Long.MAX_VALUE,
                        -0.0,
                        new BigDecimal("-0.01"),
                        "1970-01-01",
                        "",
                        "z",
                        2L));
        Batch batch = TestTables.table("t", SCHEMA, rows, 10).batches().getFirst();
        RowCodec codec = RowCodec.allNullable(SCHEMA);
        assertThat(codec.fixedBytes()).isZero();
        int[] sizes = new int[3];
        codec.rowSizes(batch, 3, sizes);
        // nullable fixed: indicator + value; strings: length + real bytes only
        assertThat(sizes[0])
                .isEqualTo((1 + 1) + (1 + 4) + (1 + 8) + (1 + 8) + (1 + 8) + (1 + 4) + (2 + 12) + (2 + 3) + 1);
        assertThat(sizes[1]).isEqualTo(6 * 1 + 2 + 2 + (1 + 8));
        assertThat(roundTrip(codec, batch, 3).rows()).isEqualTo(batch.rows());
    }

    @Test
    void notNullableColumnsComeFirstByWidthAndAtFixedOffsets() {
        Schema schema = Schema.of(
                new Column("flag", DataType.BOOLEAN),
                new Column("day", DataType.DATE),
                new Column("key", DataType.BIGINT),
                new Column("name", DataType.varchar(25)),
                new Column("maybe", DataType.DOUBLE));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row(i % 2 == 0, "1995-03-15", (long) i, i % 5 == 0 ? null : "n" + i, i % 3 == 0 ? null : i * 0.5));
        }
        Batch batch = TestTables.table("t", schema, rows, 300).batches().getFirst();
        RowCodec codec = new RowCodec(schema, new boolean[] {false, false, false, false, true});
        assertThat(codec.fixedBytes()).isEqualTo(8 + 4 + 1);
        assertThat(roundTrip(codec, batch, 300).rows()).isEqualTo(batch.rows());
    }

    @Test
    void aPrunedColumnDoesNotTravelAndArrivesAsNulls() {
        Schema schema = Schema.of(
                new Column("key", DataType.BIGINT),
                new Column("comment", DataType.varchar(79)),
                new Column("day", DataType.DATE));
        List<List<Object>> rows = List.of(row(1L, "a long comment nobody reads", "1995-03-15"), row(2L, "x", null));
        Batch batch = TestTables.table("t", schema, rows, 2).batches().getFirst();
        RowCodec codec = new RowCodec(schema, new boolean[] {false, false, true}, new boolean[] {false, true, false});
        int[] sizes = new int[2];
        codec.rowSizes(batch, 2, sizes);
        assertThat(sizes).containsExactly(8 + 1 + 4, 8 + 1);
        assertThat(roundTrip(codec, batch, 2).rows())
                .containsExactly(java.util.Arrays.asList(1L, null, 9204), java.util.Arrays.asList(2L, null, null));
    }

    @Test
    void aNullInAColumnPlannedAsNotNullableFailsLoudly() {
        Schema schema = Schema.of(new Column("k", DataType.BIGINT));
        Batch batch = TestTables.table("t", schema, List.of(row((Object) null)), 1)
                .batches()
                .getFirst();
        RowCodec codec = new RowCodec(schema, new boolean[] {false});
        assertThatThrownBy(() -> roundTrip(codec, batch, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not nullable");
    }

    /** Encodes {@code count} rows into one buffer as the exchange sink does, and decodes it with another codec. */
    private static Batch roundTrip(RowCodec codec, Batch batch, int count) {
        int[] sizes = new int[count];
        codec.rowSizes(batch, count, sizes);
        int[] rowAt = new int[count];
        int total = 0;
        for (int r = 0; r < count; r++) {
            rowAt[r] = total;
            total += sizes[r];
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(total + 64);
            codec.encode(batch, 0, count, new MemorySegment[] {buffer}, new int[count], rowAt);
            RowCodec decoder = codec.copy();
            assertThat(decoder.decode(buffer, total)).isEqualTo(count);
            return decoder.takeBatch();
        }
    }

    @Test
    void equalKeysOfDifferentWidthsLandInTheSameGroup() {
        Schema narrow = Schema.of(new Column("k", DataType.INTEGER), new Column("s", DataType.varchar(5)));
        Schema wide = Schema.of(
                new Column("s", DataType.varchar(40)),
                new Column("pad", DataType.DOUBLE),
                new Column("k", DataType.BIGINT));
        List<List<Object>> narrowRows = new ArrayList<>();
        List<List<Object>> wideRows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String s = i % 7 == 0 ? null : "v" + (i % 50);
            narrowRows.add(row(i, s));
            wideRows.add(row(s, 1.0 * i, (long) i));
        }
        int[] narrowGroups = groups(narrow, narrowRows);
        int[] wideGroups = groups(wide, wideRows);
        assertThat(wideGroups).isEqualTo(narrowGroups);
        assertThat(java.util.Arrays.stream(narrowGroups).distinct().count()).isEqualTo(3);
    }

    private static int[] groups(Schema schema, List<List<Object>> rows) {
        RowPartitioner partitioner = new RowPartitioner(schema, List.of("k", "s"), 3);
        Batch batch = TestTables.table("t", schema, rows, rows.size()).batches().getFirst();
        int[] groups = new int[rows.size()];
        partitioner.groups(batch, rows.size(), groups);
        return groups;
    }
}
