package dev.faro.engine.tpch;

import dev.faro.engine.plan.JoinType;

/**
 * The joins of the TPC-H plans whose distribution is chosen, not fixed: each joins a side that lies where it was
 * generated (the probe: LINEITEM, ORDERS or PARTSUPP, filtered) with a smaller side (the build) on the key both
 * tables are placed by under {@link Placement#FIRST_KEY} ({@link #key()}). Under that placement nothing moves; under
 * random placement {@link dev.faro.engine.plan.BroadcastRule} picks a broadcast of the build side or a repartition
 * of both, from the estimated sizes here and the exchange's parallel units ({@link Distribution}).
 *
 * <p>The sizes are estimates in bytes per unit of scale factor of the rows the exchange would carry (the columns
 * after the join's side is projected; BIGINT and DECIMAL 8 bytes, INTEGER and DATE 4, VARCHAR its mean length plus
 * 2), from the specification's selectivities: e.g. Q9's ORDERS side is every order's key and date (1.5 M × 12 B) and
 * its build side the green parts' lines summed per order and nation (5.3 % of 6 M lines × 30 B). Only their ratio
 * matters, which does not depend on the scale factor. Immutable.
 */
public enum TpchJoin {
    Q2_PARTS(2, "BRASS parts of size 15 to PARTSUPP", JoinKey.PART, JoinType.INNER, 800 * 24, 800_000 * 24),
    Q3_ORDERS(3, "BUILDING customers' early ORDERS to later LINEITEMs", JoinKey.ORDER, 146_000 * 16, 3_240_000 * 28),
    Q4_ORDERS(4, "the quarter's ORDERS to late LINEITEMs", JoinKey.ORDER, 57_000 * 18, 3_800_000 * 8),
    Q5_ORDERS(5, "the year's ORDERS of ASIA's customers to LINEITEM", JoinKey.ORDER, 45_600 * 16, 6_000_000 * 32),
    Q7_ORDERS(
            7,
            "FRANCE's and GERMANY's ORDERS to their suppliers' two-year LINEITEMs",
            JoinKey.ORDER,
            120_000 * 17,
            137_000 * 37),
    Q8_ORDERS(8, "AMERICA's two-year ORDERS to the steel parts' LINEITEMs", JoinKey.ORDER, 91_000 * 12, 40_000 * 40),
    Q9_PARTS(9, "green parts to PARTSUPP", JoinKey.PART, JoinType.SEMI, 10_600 * 8, 800_000 * 24),
    Q9_ORDERS(9, "green parts' profit per order and nation to ORDERS", JoinKey.ORDER, 320_000 * 30, 1_500_000 * 12),
    Q10_ORDERS(10, "the quarter's ORDERS to returned LINEITEMs", JoinKey.ORDER, 57_000 * 16, 1_480_000 * 24),
    Q12_LINEITEMS(12, "late MAIL and SHIP LINEITEMs of 1994 to ORDERS", JoinKey.ORDER, 31_000 * 14, 1_500_000 * 18),
    Q16_PARTS(16, "the qualifying parts to PARTSUPP", JoinKey.PART, JoinType.INNER, 29_700 * 44, 800_000 * 16),
    Q18_LINEITEMS(18, "orders of over 300 units to ORDERS", JoinKey.ORDER, 60 * 16, 1_500_000 * 28),
    Q20_PARTS(20, "forest parts to PARTSUPP", JoinKey.PART, JoinType.SEMI, 2_200 * 8, 800_000 * 20),
    Q21_LINEITEMS(21, "SAUDI ARABIA's late LINEITEMs to F-status ORDERS", JoinKey.ORDER, 151_000 * 40, 730_000 * 11),
    Q21_ORDERS(21, "the candidate lines to every LINEITEM of their orders", JoinKey.ORDER, 73_500 * 40, 6_000_000 * 24);

    /** The key two tables share when {@link Placement#FIRST_KEY} co-partitions them. */
    public enum JoinKey {
        /** ORDERS and LINEITEM, on the order key. */
        ORDER,
        /** PART and PARTSUPP, on the part key. */
        PART
    }

    private final int query;
    private final String description;
    private final JoinKey key;
    private final JoinType type;
    private final double buildBytesPerScaleFactor;
    private final double probeBytesPerScaleFactor;

    TpchJoin(int query, String description, JoinKey key, double buildBytes, double probeBytes) {
        this(query, description, key, JoinType.INNER, buildBytes, probeBytes);
    }

    TpchJoin(int query, String description, JoinKey key, JoinType type, double buildBytes, double probeBytes) {
        this.query = query;
        this.description = description;
        this.key = key;
        this.type = type;
        this.buildBytesPerScaleFactor = buildBytes;
        this.probeBytesPerScaleFactor = probeBytes;
    }

    public int query() {
        return query;
    }

    /** What moves to what, e.g. "the quarter's ORDERS to returned LINEITEMs". */
    public String description() {
        return description;
    }

    public JoinKey key() {
        return key;
    }

    public JoinType type() {
        return type;
    }

    /** Estimated bytes per unit of scale factor of the build side, the one a broadcast sends. */
    public double buildBytesPerScaleFactor() {
        return buildBytesPerScaleFactor;
    }

    /** Estimated bytes per unit of scale factor of the probe side. */
    public double probeBytesPerScaleFactor() {
        return probeBytesPerScaleFactor;
    }

    /** The estimated size ratio, probe over build. */
    public double sizeRatio() {
        return probeBytesPerScaleFactor / buildBytesPerScaleFactor;
    }
}
