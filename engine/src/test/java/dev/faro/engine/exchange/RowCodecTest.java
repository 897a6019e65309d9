package dev.faro.engine.exchange;

import static dev.faro.engine.exec.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

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
        RowCodec codec = new RowCodec(SCHEMA);
        assertThat(codec.rowBytes()).isEqualTo(2 + 1 + 4 + 8 + 8 + 8 + 4 + 14 + 5 + 8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate((long) codec.rowBytes() * 3);
            codec.encode(batch, 0, 3, segment);
            assertThat(codec.decode(segment, 3).rows()).isEqualTo(batch.rows());
            codec.encode(batch, 1, 2, segment);
            assertThat(codec.decode(segment, 2).rows()).isEqualTo(batch.rows().subList(1, 3));
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
        RowCodec codec = new RowCodec(schema);
        KeyPartitioner partitioner = new KeyPartitioner(codec, List.of("k", "s"), 3);
        Batch batch = TestTables.table("t", schema, rows, rows.size()).batches().getFirst();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate((long) codec.rowBytes() * rows.size());
            codec.encode(batch, 0, rows.size(), segment);
            int[] groups = new int[rows.size()];
            for (int r = 0; r < groups.length; r++) {
                groups[r] = partitioner.group(segment, (long) r * codec.rowBytes());
            }
            return groups;
        }
    }
}
