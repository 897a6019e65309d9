package dev.faro.txn.tpcc;

import java.util.SplittableRandom;

/**
 * Synthesised TPC-C lock sets matching the statistics of ETH19's MySQL traces (§5.4.1; the traces themselves are not
 * published): about 53 locks per transaction at serializable and 28 at read committed, home-warehouse affinity, 1 %
 * of new-order items from a remote warehouse (and TPC-C's 15 % of payments for a remote customer), so that a
 * transaction touches about 1.1 warehouses; intention locks on each table's granule of a warehouse (IS to read, IX to
 * write) above the row locks.
 *
 * <p><b>Resource ids.</b> Warehouse w (from 0) owns {@code [w × 2^16, (w + 1) × 2^16)}, so a lock manager that gives
 * each server whole warehouses partitions TPC-C as the thesis does. Within a warehouse: the warehouse row at 0,
 * district rows at 1–10, one granule per table at 16–24, then rows of each table in a sub-range, folded by modulo
 * where a table has more rows than its sub-range (customers, stock, orders, ...: two rows may then share a lock, as in
 * hashed lock tables). The item table is replicated per warehouse (as partitioned TPC-C implementations do), so
 * reading items stays local.
 *
 * <p><b>Lock sets</b> (InnoDB's behaviour: a locking read takes S row locks, a consistent read none; an insert takes
 * the row's X lock and an X lock on the gap after it). Serializable / read committed, locks per transaction:
 *
 * <pre>
 * new-order   (5–15 lines)   IS/S warehouse, IX/X district, IS/S customer, IS + S per item, IX + X per stock row,
 *                            IX + 2 X order, IX + 2 X new-order, IX + 2 X per order line        ≈ 55 / 40
 * payment                    IX/X warehouse, IX/X district, IX + customer (60 % by last name: S on 3 rows then X,
 *                            only X at read committed), IX + 2 X history                        ≈ 11 / 9
 * order-status               IS + S customer(s), IS + 2 S order, IS + S per order line          ≈ 17 / 0
 * delivery    (10 districts) IX on 4 tables; per district 2 X new-order, X order, X per line,
 *                            X customer                                                          ≈ 144 / 144
 * stock-level                IS/S district, IS + S per line of the last 20 orders, IS + S stock ≈ 404 / 0
 * </pre>
 *
 * Mixed 45/43/4/4/4: ≈ 52 locks per transaction serializable and ≈ 28 read committed (the thesis: 53.2 and 27.9).
 *
 * <p>Data path: {@link #next} allocates nothing; one instance per thread.
 */
public final class TpccLockSets {

    /** Resource ids per warehouse. */
    public static final int RESOURCES_PER_WAREHOUSE = 1 << 16;

    static final int DISTRICTS = 10;
    static final int CUSTOMERS_PER_DISTRICT = 3_000;
    static final int ITEMS = 100_000;

    private static final int WAREHOUSE_ROW = 0;
    private static final int DISTRICT_ROWS = 1;
    private static final int WAREHOUSE_TABLE = 16;
    private static final int DISTRICT_TABLE = 17;
    private static final int CUSTOMER_TABLE = 18;
    private static final int HISTORY_TABLE = 19;
    private static final int NEW_ORDER_TABLE = 20;
    private static final int ORDERS_TABLE = 21;
    private static final int ORDER_LINE_TABLE = 22;
    private static final int ITEM_TABLE = 23;
    private static final int STOCK_TABLE = 24;
    private static final int CUSTOMER_ROWS = 32;
    private static final int CUSTOMER_SPAN = 16_384;
    private static final int ITEM_ROWS = CUSTOMER_ROWS + CUSTOMER_SPAN;
    private static final int ITEM_SPAN = 8_192;
    private static final int STOCK_ROWS = ITEM_ROWS + ITEM_SPAN;
    private static final int STOCK_SPAN = 16_384;
    private static final int ORDER_ROWS = STOCK_ROWS + STOCK_SPAN;
    private static final int ORDER_SPAN = 8_192;
    private static final int NEW_ORDER_ROWS = ORDER_ROWS + ORDER_SPAN;
    private static final int NEW_ORDER_SPAN = 4_096;
    private static final int ORDER_LINE_ROWS = NEW_ORDER_ROWS + NEW_ORDER_SPAN;
    private static final int ORDER_LINE_SPAN = 8_192;
    private static final int HISTORY_ROWS = ORDER_LINE_ROWS + ORDER_LINE_SPAN;
    private static final int HISTORY_SPAN = RESOURCES_PER_WAREHOUSE - HISTORY_ROWS;

    private static final TpccTransactionType[] TYPES = TpccTransactionType.values();

    private final int warehouses;
    private final TpccIsolation isolation;
    private final boolean locksReads;
    private long orderSequence;

    /**
     * @param warehouses the number of warehouses (resource ids then lie in {@code [0, warehouses × 2^16)})
     * @param isolation which reads take locks
     */
    public TpccLockSets(int warehouses, TpccIsolation isolation) {
        if (warehouses < 1) {
            throw new IllegalArgumentException("warehouses must be at least 1: " + warehouses);
        }
        this.warehouses = warehouses;
        this.isolation = java.util.Objects.requireNonNull(isolation, "isolation is null");
        this.locksReads = isolation == TpccIsolation.SERIALIZABLE;
    }

    public int warehouses() {
        return warehouses;
    }

    public TpccIsolation isolation() {
        return isolation;
    }

    /**
     * The lock levels of {@link #levelOf}: the tables' intention locks (IS/IX on a warehouse's granule of a table), the
     * warehouse row, the district rows, then the rows of customer, item, stock, and of the order tables (orders,
     * new-order, order-line, history).
     */
    public static final java.util.List<String> LEVELS = java.util.List.of(
            "table IS/IX", "warehouse row", "district rows", "customer rows", "item rows", "stock rows", "order rows");

    /** The level of a resource id in {@link #LEVELS}. */
    public static int levelOf(long resourceId) {
        int offset = (int) (resourceId % RESOURCES_PER_WAREHOUSE);
        if (offset == WAREHOUSE_ROW) {
            return 1;
        }
        if (offset < WAREHOUSE_TABLE) {
            return 2;
        }
        if (offset < CUSTOMER_ROWS) {
            return 0;
        }
        if (offset < ITEM_ROWS) {
            return 3;
        }
        if (offset < STOCK_ROWS) {
            return 4;
        }
        return offset < ORDER_ROWS ? 5 : 6;
    }

    /** The warehouse a resource id belongs to. */
    public static int warehouseOf(long resourceId) {
        return (int) (resourceId / RESOURCES_PER_WAREHOUSE);
    }

    /**
     * Draws the next transaction of the standard mix for a client of {@code homeWarehouse} and gives its locks to
     * {@code sink}, in the order the transaction takes them.
     *
     * @return the transaction's type
     */
    public TpccTransactionType next(SplittableRandom random, int homeWarehouse, LockSink sink) {
        if (homeWarehouse < 0 || homeWarehouse >= warehouses) {
            throw new IllegalArgumentException("home warehouse " + homeWarehouse + " outside [0, " + warehouses + ")");
        }
        int draw = random.nextInt(100);
        TpccTransactionType type = TYPES[TYPES.length - 1];
        for (TpccTransactionType candidate : TYPES) {
            if (draw < candidate.percent()) {
                type = candidate;
                break;
            }
            draw -= candidate.percent();
        }
        long base = (long) homeWarehouse * RESOURCES_PER_WAREHOUSE;
        int district = 1 + random.nextInt(DISTRICTS);
        switch (type) {
            case NEW_ORDER -> newOrder(random, homeWarehouse, base, district, sink);
            case PAYMENT -> payment(random, homeWarehouse, base, district, sink);
            case ORDER_STATUS -> orderStatus(random, base, district, sink);
            case DELIVERY -> delivery(random, base, sink);
            case STOCK_LEVEL -> stockLevel(random, base, district, sink);
        }
        return type;
    }

    private void newOrder(SplittableRandom random, int home, long base, int district, LockSink sink) {
        read(sink, base, WAREHOUSE_TABLE, WAREHOUSE_ROW);
        write(sink, base, DISTRICT_TABLE, DISTRICT_ROWS + district - 1);
        read(sink, base, CUSTOMER_TABLE, customerRow(district, 1 + random.nextInt(CUSTOMERS_PER_DISTRICT)));
        int lines = 5 + random.nextInt(11);
        if (locksReads) {
            sink.lock(base + ITEM_TABLE, LockIntent.INTENTION_SHARED);
        }
        for (int line = 0; line < lines; line++) {
            int item = random.nextInt(ITEMS);
            if (locksReads) {
                sink.lock(base + ITEM_ROWS + item % ITEM_SPAN, LockIntent.SHARED);
            }
        }
        sink.lock(base + STOCK_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        for (int line = 0; line < lines; line++) {
            long supplier = base;
            if (warehouses > 1 && random.nextInt(100) == 0) {
                int remote = (home + 1 + random.nextInt(warehouses - 1)) % warehouses;
                supplier = (long) remote * RESOURCES_PER_WAREHOUSE;
                sink.lock(supplier + STOCK_TABLE, LockIntent.INTENTION_EXCLUSIVE);
            }
            sink.lock(supplier + STOCK_ROWS + random.nextInt(ITEMS) % STOCK_SPAN, LockIntent.EXCLUSIVE);
        }
        long order = orderSequence++;
        insert(sink, base, ORDERS_TABLE, ORDER_ROWS, ORDER_SPAN, order);
        insert(sink, base, NEW_ORDER_TABLE, NEW_ORDER_ROWS, NEW_ORDER_SPAN, order);
        sink.lock(base + ORDER_LINE_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        for (int line = 0; line < lines; line++) {
            long row = order * 15 + line;
            sink.lock(base + ORDER_LINE_ROWS + row % ORDER_LINE_SPAN, LockIntent.EXCLUSIVE);
            sink.lock(base + ORDER_LINE_ROWS + (row + 1) % ORDER_LINE_SPAN, LockIntent.EXCLUSIVE);
        }
    }

    private void payment(SplittableRandom random, int home, long base, int district, LockSink sink) {
        write(sink, base, WAREHOUSE_TABLE, WAREHOUSE_ROW);
        write(sink, base, DISTRICT_TABLE, DISTRICT_ROWS + district - 1);
        long customerBase = base;
        if (warehouses > 1 && random.nextInt(100) < 15) {
            customerBase = (long) ((home + 1 + random.nextInt(warehouses - 1)) % warehouses) * RESOURCES_PER_WAREHOUSE;
        }
        sink.lock(customerBase + CUSTOMER_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        int customer = 1 + random.nextInt(CUSTOMERS_PER_DISTRICT - 2);
        if (random.nextInt(100) < 60 && locksReads) {
            for (int i = 0; i < 3; i++) {
                sink.lock(customerBase + customerRow(district, customer + i), LockIntent.SHARED);
            }
            sink.lock(customerBase + customerRow(district, customer + 1), LockIntent.EXCLUSIVE);
        } else {
            sink.lock(customerBase + customerRow(district, customer), LockIntent.EXCLUSIVE);
        }
        insert(sink, base, HISTORY_TABLE, HISTORY_ROWS, HISTORY_SPAN, random.nextInt(HISTORY_SPAN));
    }

    private void orderStatus(SplittableRandom random, long base, int district, LockSink sink) {
        if (!locksReads) {
            return;
        }
        sink.lock(base + CUSTOMER_TABLE, LockIntent.INTENTION_SHARED);
        int customer = 1 + random.nextInt(CUSTOMERS_PER_DISTRICT - 2);
        int rows = random.nextInt(100) < 60 ? 3 : 1;
        for (int i = 0; i < rows; i++) {
            sink.lock(base + customerRow(district, customer + i), LockIntent.SHARED);
        }
        long order = Math.max(0, orderSequence - 1 - random.nextInt(100));
        sink.lock(base + ORDERS_TABLE, LockIntent.INTENTION_SHARED);
        sink.lock(base + ORDER_ROWS + order % ORDER_SPAN, LockIntent.SHARED);
        sink.lock(base + ORDER_ROWS + (order + 1) % ORDER_SPAN, LockIntent.SHARED);
        sink.lock(base + ORDER_LINE_TABLE, LockIntent.INTENTION_SHARED);
        int lines = 5 + random.nextInt(11);
        for (int line = 0; line < lines; line++) {
            sink.lock(base + ORDER_LINE_ROWS + (order * 15 + line) % ORDER_LINE_SPAN, LockIntent.SHARED);
        }
    }

    private void delivery(SplittableRandom random, long base, LockSink sink) {
        sink.lock(base + NEW_ORDER_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        sink.lock(base + ORDERS_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        sink.lock(base + ORDER_LINE_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        sink.lock(base + CUSTOMER_TABLE, LockIntent.INTENTION_EXCLUSIVE);
        long oldest = Math.max(0, orderSequence - 2_000 - random.nextInt(100));
        for (int district = 1; district <= DISTRICTS; district++) {
            long order = oldest + district;
            sink.lock(base + NEW_ORDER_ROWS + order % NEW_ORDER_SPAN, LockIntent.EXCLUSIVE);
            sink.lock(base + NEW_ORDER_ROWS + (order + 1) % NEW_ORDER_SPAN, LockIntent.EXCLUSIVE);
            sink.lock(base + ORDER_ROWS + order % ORDER_SPAN, LockIntent.EXCLUSIVE);
            int lines = 5 + random.nextInt(11);
            for (int line = 0; line < lines; line++) {
                sink.lock(base + ORDER_LINE_ROWS + (order * 15 + line) % ORDER_LINE_SPAN, LockIntent.EXCLUSIVE);
            }
            sink.lock(base + customerRow(district, 1 + random.nextInt(CUSTOMERS_PER_DISTRICT)), LockIntent.EXCLUSIVE);
        }
    }

    private void stockLevel(SplittableRandom random, long base, int district, LockSink sink) {
        if (!locksReads) {
            return;
        }
        read(sink, base, DISTRICT_TABLE, DISTRICT_ROWS + district - 1);
        long last = orderSequence;
        sink.lock(base + ORDER_LINE_TABLE, LockIntent.INTENTION_SHARED);
        for (int order = 0; order < 20; order++) {
            for (int line = 0; line < 10; line++) {
                long row = (last - order) * 15 + line;
                sink.lock(base + ORDER_LINE_ROWS + Math.floorMod(row, ORDER_LINE_SPAN), LockIntent.SHARED);
            }
        }
        sink.lock(base + STOCK_TABLE, LockIntent.INTENTION_SHARED);
        for (int i = 0; i < 200; i++) {
            sink.lock(base + STOCK_ROWS + random.nextInt(ITEMS) % STOCK_SPAN, LockIntent.SHARED);
        }
    }

    /** A locking read of one row under its table's granule (nothing at read committed). */
    private void read(LockSink sink, long base, int table, int row) {
        if (locksReads) {
            sink.lock(base + table, LockIntent.INTENTION_SHARED);
            sink.lock(base + row, LockIntent.SHARED);
        }
    }

    /** An update of one row under its table's granule. */
    private static void write(LockSink sink, long base, int table, int row) {
        sink.lock(base + table, LockIntent.INTENTION_EXCLUSIVE);
        sink.lock(base + row, LockIntent.EXCLUSIVE);
    }

    /** An insert: the table's IX, the new row's X and the X of the gap after it. */
    private static void insert(LockSink sink, long base, int table, int rows, int span, long key) {
        sink.lock(base + table, LockIntent.INTENTION_EXCLUSIVE);
        sink.lock(base + rows + key % span, LockIntent.EXCLUSIVE);
        sink.lock(base + rows + (key + 1) % span, LockIntent.EXCLUSIVE);
    }

    private static int customerRow(int district, int customer) {
        return CUSTOMER_ROWS + ((district - 1) * CUSTOMERS_PER_DISTRICT + customer - 1) % CUSTOMER_SPAN;
    }
}
