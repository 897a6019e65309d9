package dev.faro.engine.tpcc;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import dev.faro.engine.vector.Table;
import dev.faro.engine.vector.Vector;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A small TPC-C database generated in memory, deterministic from a seed: the nine tables with the specification's
 * initial cardinalities (clause 4.3.3.1) for {@code W} warehouses: WAREHOUSE W, DISTRICT 10·W, CUSTOMER 30,000·W,
 * HISTORY 30,000·W, ORDERS 30,000·W, NEW_ORDER 9,000·W (the last 900 orders of each district), ORDER_LINE about
 * 300,000·W (5–15 per order), STOCK 100,000·W, ITEM 100,000. The columns are those DAIS16's analytical queries and
 * the joins between the tables need, with the specification's types narrowed to the engine's (dates rather than
 * timestamps).
 *
 * <p>Deviations, so that the paper's queries (Listing 1.1) select something: entry dates are spread over 2013 (the
 * specification stamps the load time), a delivered order line's delivery date is 0–30 days after its order's entry
 * date (undelivered ones, of the 900 newest orders per district, have none: NULL), and every order line has a random
 * amount (0.01–9,999.99) and quantity (1–10), where the specification sets 0.00 and 5 for delivered lines.
 *
 * <p>Placement over {@code nodes}: each table is cut into blocks of {@value #BLOCK_ROWS} rows and each block lives on a
 * pseudo-random node drawn per table (as the TPC-H generator's random placement), so no two tables are co-partitioned;
 * every node generates the whole database and keeps its blocks. Coordination code.
 */
public final class TpccGenerator {

    /** Rows per placement block (and per batch). */
    public static final int BLOCK_ROWS = 1024;

    static final int DISTRICTS = 10;
    static final int CUSTOMERS = 3000;
    static final int ORDERS = 3000;
    static final int FIRST_NEW_ORDER = 2101;
    static final int ITEMS = 100_000;
    private static final int ENTRY_EPOCH_DAY = (int) LocalDate.of(2013, 1, 1).toEpochDay();

    private static final DataType MONEY = DataType.decimal(2);

    /** The nine tables' schemas. */
    public static final Schema WAREHOUSE =
            schema("w_id", DataType.INTEGER, "w_name", DataType.varchar(10), "w_state", DataType.varchar(2));

    public static final Schema DISTRICT = schema(
            "d_id",
            DataType.INTEGER,
            "d_w_id",
            DataType.INTEGER,
            "d_name",
            DataType.varchar(10),
            "d_next_o_id",
            DataType.INTEGER);
    public static final Schema CUSTOMER = schema(
            "c_id",
            DataType.INTEGER,
            "c_d_id",
            DataType.INTEGER,
            "c_w_id",
            DataType.INTEGER,
            "c_last",
            DataType.varchar(16),
            "c_state",
            DataType.varchar(2),
            "c_balance",
            MONEY);
    public static final Schema HISTORY = schema(
            "h_c_id",
            DataType.INTEGER,
            "h_c_d_id",
            DataType.INTEGER,
            "h_c_w_id",
            DataType.INTEGER,
            "h_date",
            DataType.DATE,
            "h_amount",
            MONEY);
    public static final Schema ORDERS_SCHEMA = schema(
            "o_id",
            DataType.INTEGER,
            "o_d_id",
            DataType.INTEGER,
            "o_w_id",
            DataType.INTEGER,
            "o_c_id",
            DataType.INTEGER,
            "o_entry_d",
            DataType.DATE,
            "o_ol_cnt",
            DataType.INTEGER);
    public static final Schema NEW_ORDER =
            schema("no_o_id", DataType.INTEGER, "no_d_id", DataType.INTEGER, "no_w_id", DataType.INTEGER);
    public static final Schema ORDER_LINE = schema(
            "ol_o_id",
            DataType.INTEGER,
            "ol_d_id",
            DataType.INTEGER,
            "ol_w_id",
            DataType.INTEGER,
            "ol_number",
            DataType.INTEGER,
            "ol_i_id",
            DataType.INTEGER,
            "ol_delivery_d",
            DataType.DATE,
            "ol_quantity",
            DataType.INTEGER,
            "ol_amount",
            MONEY);
    public static final Schema ITEM = schema(
            "i_id", DataType.INTEGER, "i_name", DataType.varchar(24), "i_price", MONEY, "i_data", DataType.varchar(50));
    public static final Schema STOCK = schema(
            "s_i_id",
            DataType.INTEGER,
            "s_w_id",
            DataType.INTEGER,
            "s_quantity",
            DataType.INTEGER,
            "s_ytd",
            DataType.INTEGER);

    private static final String ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
    };

    private final int warehouses;
    private final long seed;
    private final int node;
    private final int nodes;

    /**
     * @param warehouses W, at least 1
     * @param seed the same seed gives the same rows
     * @param node this node, in [0, nodes)
     */
    public TpccGenerator(int warehouses, long seed, int node, int nodes) {
        if (warehouses < 1 || nodes < 1 || node < 0 || node >= nodes) {
            throw new IllegalArgumentException(
                    "bad TPC-C shape: warehouses=" + warehouses + " node=" + node + " nodes=" + nodes);
        }
        this.warehouses = warehouses;
        this.seed = seed;
        this.node = node;
        this.nodes = nodes;
    }

    /** This node's blocks of all nine tables. */
    public List<Table> generateAll() {
        return List.of(
                warehouse(), district(), customer(), history(), orders(), newOrder(), orderLine(), item(), stock());
    }

    /**
     * Node {@code node}'s share of {@code whole}, a table generated for one node with {@code seed}: the blocks a
     * generator for {@code nodes} nodes keeps there (the same rows, without generating them again).
     */
    public static Table place(Table whole, long seed, int node, int nodes) {
        if (nodes < 1 || node < 0 || node >= nodes) {
            throw new IllegalArgumentException("bad placement: node=" + node + " nodes=" + nodes);
        }
        List<Batch> kept = new ArrayList<>();
        for (int block = 0; block < whole.batches().size(); block++) {
            if (owner(whole.name(), seed, block, nodes) == node) {
                kept.add(whole.batches().get(block));
            }
        }
        return new Table(whole.name(), whole.schema(), kept);
    }

    /** The node that holds block {@code block} of {@code table}. */
    private static int owner(String table, long seed, long block, int nodes) {
        long mixed = (block * 0x9E3779B97F4A7C15L + table.hashCode() + seed) * 0xBF58476D1CE4E5B9L;
        return (int) Math.floorMod(mixed >>> 17, (long) nodes);
    }

    private Table warehouse() {
        Builder table = new Builder("warehouse", WAREHOUSE);
        SplittableRandom random = random(1);
        for (int w = 1; w <= warehouses; w++) {
            table.add(w, astring(random, 6, 10), letters(random, 2));
        }
        return table.finish();
    }

    private Table district() {
        Builder table = new Builder("district", DISTRICT);
        SplittableRandom random = random(2);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                table.add(d, w, astring(random, 6, 10), ORDERS + 1);
            }
        }
        return table.finish();
    }

    private Table customer() {
        Builder table = new Builder("customer", CUSTOMER);
        SplittableRandom random = random(3);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                for (int c = 1; c <= CUSTOMERS; c++) {
                    int lastNumber = c <= 1000 ? c - 1 : random.nextInt(1000);
                    table.add(c, d, w, lastName(lastNumber), letters(random, 2), -1000L);
                }
            }
        }
        return table.finish();
    }

    private Table history() {
        Builder table = new Builder("history", HISTORY);
        SplittableRandom random = random(4);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                for (int c = 1; c <= CUSTOMERS; c++) {
                    table.add(c, d, w, ENTRY_EPOCH_DAY + random.nextInt(365), 1000L);
                }
            }
        }
        return table.finish();
    }

    /** Order o of district (w, d): its customer (a permutation per district), entry date and line count. */
    private record Order(int customer, int entryDay, int lines) {}

    private Order[] orders(int w, int d) {
        SplittableRandom random = random(100_000L * w + d);
        int[] permutation = new int[ORDERS];
        for (int i = 0; i < ORDERS; i++) {
            permutation[i] = i + 1;
        }
        for (int i = ORDERS - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = swap;
        }
        Order[] orders = new Order[ORDERS + 1];
        for (int o = 1; o <= ORDERS; o++) {
            orders[o] = new Order(permutation[o - 1], ENTRY_EPOCH_DAY + random.nextInt(365), 5 + random.nextInt(11));
        }
        return orders;
    }

    private Table orders() {
        Builder table = new Builder("orders", ORDERS_SCHEMA);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                Order[] orders = orders(w, d);
                for (int o = 1; o <= ORDERS; o++) {
                    table.add(o, d, w, orders[o].customer(), orders[o].entryDay(), orders[o].lines());
                }
            }
        }
        return table.finish();
    }

    private Table newOrder() {
        Builder table = new Builder("new_order", NEW_ORDER);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                for (int o = FIRST_NEW_ORDER; o <= ORDERS; o++) {
                    table.add(o, d, w);
                }
            }
        }
        return table.finish();
    }

    private Table orderLine() {
        Builder table = new Builder("order_line", ORDER_LINE);
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= DISTRICTS; d++) {
                Order[] orders = orders(w, d);
                SplittableRandom random = random(200_000L * w + d);
                for (int o = 1; o <= ORDERS; o++) {
                    for (int number = 1; number <= orders[o].lines(); number++) {
                        Integer delivery = o < FIRST_NEW_ORDER ? orders[o].entryDay() + random.nextInt(31) : null;
                        table.add(
                                o,
                                d,
                                w,
                                number,
                                1 + random.nextInt(ITEMS),
                                delivery,
                                1 + random.nextInt(10),
                                1L + random.nextInt(999_999));
                    }
                }
            }
        }
        return table.finish();
    }

    private Table item() {
        Builder table = new Builder("item", ITEM);
        SplittableRandom random = random(5);
        for (int i = 1; i <= ITEMS; i++) {
            String data = astring(random, 26, 50);
            if (random.nextInt(10) == 0) {
                int at = random.nextInt(data.length() - 8);
                data = data.substring(0, at) + "ORIGINAL" + data.substring(at + 8);
            }
            table.add(i, astring(random, 14, 24), 100L + random.nextInt(9_901), data);
        }
        return table.finish();
    }

    private Table stock() {
        Builder table = new Builder("stock", STOCK);
        SplittableRandom random = random(6);
        for (int w = 1; w <= warehouses; w++) {
            for (int i = 1; i <= ITEMS; i++) {
                table.add(i, w, 10 + random.nextInt(91), 0);
            }
        }
        return table.finish();
    }

    private SplittableRandom random(long stream) {
        return new SplittableRandom(seed * 1_000_003L + stream);
    }

    private static String astring(SplittableRandom random, int min, int max) {
        int length = min + random.nextInt(max - min + 1);
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length()));
        }
        return new String(chars);
    }

    private static String letters(SplittableRandom random, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = (char) ('A' + random.nextInt(26));
        }
        return new String(chars);
    }

    /** The specification's C_LAST from a number in 0..999 (three syllables). */
    private static String lastName(int number) {
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    private static Schema schema(Object... namesAndTypes) {
        Column[] columns = new Column[namesAndTypes.length / 2];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = Column.of((String) namesAndTypes[2 * i], (DataType) namesAndTypes[2 * i + 1]);
        }
        return Schema.of(columns);
    }

    /** Rows of one table, kept a block at a time when the block is this node's. */
    private final class Builder {
        private final String name;
        private final Schema schema;
        private final List<Batch> batches = new ArrayList<>();
        private final List<Object[]> rows = new ArrayList<>();
        private long block;

        Builder(String name, Schema schema) {
            this.name = name;
            this.schema = schema;
        }

        void add(Object... row) {
            rows.add(row);
            if (rows.size() == BLOCK_ROWS) {
                flush();
            }
        }

        Table finish() {
            if (!rows.isEmpty()) {
                flush();
            }
            return new Table(name, schema, batches);
        }

        private void flush() {
            if (owner(name, seed, block++, nodes) == node) {
                batches.add(batch());
            }
            rows.clear();
        }

        private Batch batch() {
            int count = rows.size();
            List<Column> columns = schema.columns();
            Vector[] vectors = new Vector[columns.size()];
            for (int c = 0; c < vectors.length; c++) {
                DataType type = columns.get(c).type();
                switch (type.kind()) {
                    case INTEGER, DATE -> {
                        int[] values = new int[count];
                        boolean[] nulls = null;
                        for (int r = 0; r < count; r++) {
                            Object value = rows.get(r)[c];
                            if (value == null) {
                                nulls = nulls == null ? new boolean[count] : nulls;
                                nulls[r] = true;
                            } else {
                                values[r] = (Integer) value;
                            }
                        }
                        vectors[c] = nulls == null ? new IntVector(type, values) : new IntVector(type, values, nulls);
                    }
                    case DECIMAL, BIGINT -> {
                        long[] values = new long[count];
                        for (int r = 0; r < count; r++) {
                            values[r] = (Long) rows.get(r)[c];
                        }
                        vectors[c] = new LongVector(type, values);
                    }
                    case VARCHAR -> {
                        String[] values = new String[count];
                        for (int r = 0; r < count; r++) {
                            values[r] = (String) rows.get(r)[c];
                        }
                        vectors[c] = new StringVector(type, values);
                    }
                    default -> throw new IllegalStateException("no TPC-C column has type " + type);
                }
            }
            return Batch.of(count, vectors);
        }
    }
}
