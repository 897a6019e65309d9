package dev.faro.engine.exec;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Table;
import dev.faro.engine.vector.Vector;
import dev.faro.engine.vector.VectorBuilder;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds small in-memory tables from boxed rows for tests, and a deterministic random TPC-H-like data set. */
public final class TestTables {

    private TestTables() {}

    /**
     * A table of {@code rows} (boxed: Long/Integer for exact types, BigDecimal or unscaled Long for DECIMAL, String
     * "yyyy-mm-dd" or Integer epoch days for DATE, Double, String, Boolean; null = NULL) in batches of
     * {@code batchRows}.
     */
    public static Table table(String name, Schema schema, List<List<Object>> rows, int batchRows) {
        List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += batchRows) {
            int count = Math.min(batchRows, rows.size() - from);
            List<Vector> columns = new ArrayList<>();
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.type(c);
                VectorBuilder builder = VectorBuilder.create(type, count);
                for (int r = 0; r < count; r++) {
                    Object value = rows.get(from + r).get(c);
                    if (value == null) {
                        builder.setNull(r);
                        continue;
                    }
                    switch (type.kind()) {
                        case BIGINT -> builder.setLong(r, ((Number) value).longValue());
                        case DECIMAL ->
                            builder.setLong(
                                    r,
                                    value instanceof BigDecimal d
                                            ? d.setScale(type.scale())
                                                    .unscaledValue()
                                                    .longValueExact()
                                            : ((Number) value).longValue());
                        case INTEGER -> builder.setInt(r, ((Number) value).intValue());
                        case DATE ->
                            builder.setInt(
                                    r,
                                    value instanceof String s
                                            ? (int) LocalDate.parse(s).toEpochDay()
                                            : ((Number) value).intValue());
                        case DOUBLE -> builder.setDouble(r, ((Number) value).doubleValue());
                        case VARCHAR -> builder.setString(r, (String) value);
                        case BOOLEAN -> builder.setBoolean(r, (Boolean) value);
                    }
                }
                columns.add(builder.build());
            }
            batches.add(new Batch(count, columns));
        }
        return new Table(name, schema, batches);
    }

    public static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    public static final Schema CUSTOMER = Schema.of(
            new Column("c_custkey", DataType.BIGINT),
            new Column("c_name", DataType.varchar(25)),
            new Column("c_mktsegment", DataType.varchar(10)),
            new Column("c_nationkey", DataType.INTEGER));

    public static final Schema ORDERS = Schema.of(
            new Column("o_orderkey", DataType.BIGINT),
            new Column("o_custkey", DataType.BIGINT),
            new Column("o_orderdate", DataType.DATE),
            new Column("o_orderpriority", DataType.varchar(15)),
            new Column("o_comment", DataType.varchar(79)));

    public static final Schema LINEITEM = Schema.of(
            new Column("l_orderkey", DataType.BIGINT),
            new Column("l_quantity", DataType.decimal(2)),
            new Column("l_extendedprice", DataType.decimal(2)),
            new Column("l_discount", DataType.decimal(2)),
            new Column("l_shipdate", DataType.DATE),
            new Column("l_commitdate", DataType.DATE),
            new Column("l_receiptdate", DataType.DATE),
            new Column("l_returnflag", DataType.varchar(1)));

    private static final String[] SEGMENTS = {"BUILDING", "AUTOMOBILE", "MACHINERY", "HOUSEHOLD", "FURNITURE"};
    private static final String[] PRIORITIES = {"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"};

    /** A small deterministic TPC-H-like catalog (customer, orders, lineitem) split into {@code batchRows} morsels. */
    public static List<Table> tpchLike(int customers, int batchRows, long seed) {
        Random random = new Random(seed);
        List<List<Object>> customerRows = new ArrayList<>();
        for (int c = 1; c <= customers; c++) {
            customerRows.add(
                    row((long) c, "Customer#" + c, SEGMENTS[random.nextInt(SEGMENTS.length)], random.nextInt(25)));
        }
        List<List<Object>> orderRows = new ArrayList<>();
        List<List<Object>> lineRows = new ArrayList<>();
        int start = (int) LocalDate.parse("1992-01-01").toEpochDay();
        long orderKey = 0;
        for (int o = 0; o < customers * 10; o++) {
            orderKey += 1 + random.nextInt(3);
            int orderDate = start + random.nextInt(2400);
            String comment = random.nextInt(10) == 0 ? "special requests pending" : "quick deposits";
            orderRows.add(row(
                    orderKey,
                    (long) (1 + random.nextInt(customers)),
                    orderDate,
                    PRIORITIES[random.nextInt(PRIORITIES.length)],
                    random.nextInt(50) == 0 ? null : comment));
            int lines = 1 + random.nextInt(7);
            for (int l = 0; l < lines; l++) {
                int ship = orderDate + 1 + random.nextInt(120);
                int commit = orderDate + 30 + random.nextInt(60);
                int receipt = ship + 1 + random.nextInt(30);
                long quantity = (1 + random.nextInt(50)) * 100L;
                long price = quantity / 100 * (90_000 + random.nextInt(10_000));
                lineRows.add(row(
                        orderKey,
                        quantity,
                        price,
                        (long) random.nextInt(11),
                        ship,
                        commit,
                        receipt,
                        random.nextBoolean() ? "R" : (random.nextBoolean() ? "A" : "N")));
            }
        }
        return List.of(
                table("customer", CUSTOMER, customerRows, batchRows),
                table("orders", ORDERS, orderRows, batchRows),
                table("lineitem", LINEITEM, lineRows, batchRows));
    }

    /** Node {@code node}'s share of {@code tables} when spread over {@code nodes} nodes (round-robin by batch). */
    public static List<Table> partition(List<Table> tables, int node, int nodes) {
        List<Table> result = new ArrayList<>();
        for (Table table : tables) {
            List<Batch> mine = new ArrayList<>();
            for (int b = node; b < table.batches().size(); b += nodes) {
                mine.add(table.batches().get(b));
            }
            result.add(new Table(table.name(), table.schema(), mine));
        }
        return result;
    }
}
