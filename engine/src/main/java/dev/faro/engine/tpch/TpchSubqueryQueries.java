package dev.faro.engine.tpch;

import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.caseWhen;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.date;
import static dev.faro.engine.expression.Expressions.decimal;
import static dev.faro.engine.expression.Expressions.div;
import static dev.faro.engine.expression.Expressions.eq;
import static dev.faro.engine.expression.Expressions.ge;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.in;
import static dev.faro.engine.expression.Expressions.isNull;
import static dev.faro.engine.expression.Expressions.like;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.mul;
import static dev.faro.engine.expression.Expressions.ne;
import static dev.faro.engine.expression.Expressions.notLike;
import static dev.faro.engine.expression.Expressions.substring;
import static dev.faro.engine.plan.Plans.as;
import static dev.faro.engine.plan.Plans.asc;
import static dev.faro.engine.plan.Plans.column;
import static dev.faro.engine.plan.Plans.countDistinct;
import static dev.faro.engine.plan.Plans.countStar;
import static dev.faro.engine.plan.Plans.desc;
import static dev.faro.engine.plan.Plans.keys;
import static dev.faro.engine.plan.Plans.max;
import static dev.faro.engine.plan.Plans.min;
import static dev.faro.engine.plan.Plans.sum;
import static dev.faro.engine.tpch.TpchQueries.discountedPrice;
import static dev.faro.engine.tpch.TpchQueries.scan;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;
import io.trino.tpch.TpchTable;
import java.util.List;

/**
 * TPC-H queries with subqueries (Q2, Q11, Q13, Q15, Q16, Q17, Q20, Q21, Q22), decorrelated by hand. A scalar
 * subquery is a global aggregate whose partial states are broadcast and finished on every node, then joined on a
 * constant key ({@code lit(1)}) with the comparison as the join's residual; a correlated aggregate is grouped on the
 * correlation key and joined back. An AVG is an exact DECIMAL sum over a count, divided once (DOUBLE, as DuckDB):
 * the same bits on any number of nodes. Plans are trees: a subquery reading the same tables as its outer query scans
 * them again (exchanges are numbered per occurrence).
 */
final class TpchSubqueryQueries {

    private static final String[] COUNTRY_CODES = {"13", "31", "23", "29", "30", "18", "17"};

    private TpchSubqueryQueries() {}

    /** The nation called {@code name} (key, name; NATION is on every node: no exchange). */
    private static PlanNode nationNamed(String name) {
        return scan(TpchTable.NATION, "n_nationkey", "n_name").filter(eq(col("n_name"), lit(name)));
    }

    /** EUROPE's suppliers, every column Q2 shows plus the nation name, from the local SUPPLIER rows. */
    private static PlanNode europeanSuppliers() {
        PlanNode europe = scan(TpchTable.NATION, "n_nationkey", "n_name", "n_regionkey")
                .join(
                        scan(TpchTable.REGION, "r_regionkey", "r_name").filter(eq(col("r_name"), lit("EUROPE"))),
                        keys("n_regionkey"),
                        keys("r_regionkey"))
                .select("n_nationkey", "n_name");
        return scan(
                        TpchTable.SUPPLIER,
                        "s_suppkey",
                        "s_name",
                        "s_address",
                        "s_nationkey",
                        "s_phone",
                        "s_acctbal",
                        "s_comment")
                .join(europe, keys("s_nationkey"), keys("n_nationkey"));
    }

    /** The PARTSUPP rows (part, supplier, cost) of the size-15 BRASS parts, with the part's manufacturer. */
    private static PlanNode brassOffers(Distribution distribution) {
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_mfgr", "p_size", "p_type")
                .filter(and(eq(col("p_size"), lit(15)), like(col("p_type"), "%BRASS")))
                .select("p_partkey", "p_mfgr");
        return distribution.join(
                TpchJoin.Q2_PARTS,
                scan(TpchTable.PART_SUPPLIER, "ps_partkey", "ps_suppkey", "ps_supplycost"),
                parts,
                "ps_partkey",
                "p_partkey");
    }

    /**
     * Q2, minimum cost supplier. The BRASS parts meet PARTSUPP as {@link TpchJoin#Q2_PARTS} says (broadcast to it;
     * in place under first-key placement) and EUROPE's suppliers are broadcast to it; the minimum cost per part over
     * those offers is partial there, broadcast and finished on every node (the correlated subquery; one phase where
     * the offers of a part all lie on one node), and joined back on (part, cost) to the offers (computed again); the
     * top 100 of every node are gathered.
     */
    static PlanNode q2(Distribution distribution) {
        AggregateCall minCost = min(col("ps_supplycost"), "min_cost");
        PlanNode europeanOffers = brassOffers(distribution)
                .join(JoinType.SEMI, europeanSuppliers().select("s_suppkey").broadcast(), "ps_suppkey", "s_suppkey");
        PlanNode minimumCosts = (distribution.coPartitioned(TpchJoin.Q2_PARTS)
                        ? europeanOffers.aggregate(keys("ps_partkey"), minCost)
                        : europeanOffers
                                .partialAggregate(keys("ps_partkey"), minCost)
                                .broadcast()
                                .finalAggregate(keys("ps_partkey"), minCost))
                .project(as(col("ps_partkey"), "m_partkey"), column("min_cost"));
        return brassOffers(distribution)
                .join(europeanSuppliers().broadcast(), keys("ps_suppkey"), keys("s_suppkey"))
                .join(minimumCosts, keys("ps_partkey", "ps_supplycost"), keys("m_partkey", "min_cost"))
                .topN(100, desc("s_acctbal"), asc("n_name"), asc("s_name"), asc("p_partkey"))
                .gather()
                .topN(100, desc("s_acctbal"), asc("n_name"), asc("s_name"), asc("p_partkey"))
                .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment");
    }

    /** GERMANY's PARTSUPP rows (part key, stock value), joined where they lie with the broadcast suppliers. */
    private static PlanNode germanStock() {
        PlanNode suppliers = scan(TpchTable.SUPPLIER, "s_suppkey", "s_nationkey")
                .join(JoinType.SEMI, nationNamed("GERMANY"), "s_nationkey", "n_nationkey")
                .select("s_suppkey")
                .broadcast();
        return scan(TpchTable.PART_SUPPLIER, "ps_partkey", "ps_suppkey", "ps_supplycost", "ps_availqty")
                .join(JoinType.SEMI, suppliers, "ps_suppkey", "s_suppkey")
                .project(column("ps_partkey"), as(mul(col("ps_supplycost"), col("ps_availqty")), "stock"));
    }

    /**
     * Q11, important stock. The value per part is partial where the PARTSUPP rows lie, repartitioned on the part and
     * finished (one phase where a part's rows all lie on one node); the grand total (the scalar subquery) is partial, broadcast and finished on every node, and joined
     * on a constant key: {@code value > total * 0.0001} is evaluated exactly as {@code value * 10000 > total}. The
     * survivors are gathered and sorted.
     */
    static PlanNode q11(Distribution distribution) {
        AggregateCall total = sum(col("stock"), "total");
        PlanNode grandTotal = germanStock()
                .partialAggregate(keys(), total)
                .broadcast()
                .finalAggregate(keys(), total)
                .project(as(lit(1), "total_key"), column("total"));
        return distribution
                .aggregate(germanStock(), keys("ps_partkey"), sum(col("stock"), "value"))
                .project(column("ps_partkey"), column("value"), as(lit(1), "value_key"))
                .join(
                        JoinType.INNER,
                        grandTotal,
                        keys("value_key"),
                        keys("total_key"),
                        gt(mul(col("value"), lit(10000)), col("total")),
                        keys("ps_partkey", "value"))
                .gather()
                .sort(desc("value"));
    }

    /**
     * Q13, customer distribution. The orders per customer (comments not about special requests) are counted
     * partially where they lie, repartitioned on the customer and finished; the customer keys are repartitioned the
     * same way and LEFT-joined to the counts (no match: 0 orders); customers per count are partial, gathered and
     * finished on node 0.
     */
    static PlanNode q13() {
        AggregateCall orderCount = countStar("order_count");
        PlanNode counts = scan(TpchTable.ORDERS, "o_custkey", "o_comment")
                .filter(notLike(col("o_comment"), "%special%requests%"))
                .distributedAggregate(keys("o_custkey"), orderCount);
        AggregateCall customers = countStar("custdist");
        return scan(TpchTable.CUSTOMER, "c_custkey")
                .repartition("c_custkey")
                .join(JoinType.LEFT, counts, keys("c_custkey"), keys("o_custkey"), null, List.of())
                .project(as(caseWhen(isNull(col("order_count")), lit(0), col("order_count")), "c_count"))
                .partialAggregate(keys("c_count"), customers)
                .gather()
                .finalAggregate(keys("c_count"), customers)
                .sort(desc("custdist"), desc("c_count"));
    }

    /** The quarter's revenue per supplier: partial where the LINEITEMs lie, repartitioned on the supplier. */
    private static PlanNode supplierRevenue() {
        return scan(TpchTable.LINE_ITEM, "l_suppkey", "l_extendedprice", "l_discount", "l_shipdate")
                .filter(and(ge(col("l_shipdate"), date("1996-01-01")), lt(col("l_shipdate"), date("1996-04-01"))))
                .project(column("l_suppkey"), as(discountedPrice(), "volume"))
                .distributedAggregate(keys("l_suppkey"), sum(col("volume"), "total_revenue"));
    }

    /**
     * Q15, top supplier (the view inlined twice). The maximum revenue is partial over each node's finished supplier
     * revenues, broadcast and finished everywhere, and joined on a constant key to keep the suppliers that reach
     * it; those few are broadcast to SUPPLIER, joined where the supplier lies, gathered and sorted.
     */
    static PlanNode q15() {
        AggregateCall maximum = max(col("total_revenue"), "max_revenue");
        PlanNode maxRevenue = supplierRevenue()
                .partialAggregate(keys(), maximum)
                .broadcast()
                .finalAggregate(keys(), maximum)
                .project(as(lit(1), "max_key"), column("max_revenue"));
        PlanNode top = supplierRevenue()
                .project(column("l_suppkey"), column("total_revenue"), as(lit(1), "revenue_key"))
                .join(
                        JoinType.INNER,
                        maxRevenue,
                        keys("revenue_key"),
                        keys("max_key"),
                        eq(col("total_revenue"), col("max_revenue")),
                        keys("l_suppkey", "total_revenue"))
                .broadcast();
        return scan(TpchTable.SUPPLIER, "s_suppkey", "s_name", "s_address", "s_phone")
                .join(top, keys("s_suppkey"), keys("l_suppkey"))
                .gather()
                .sort(asc("s_suppkey"))
                .select("s_suppkey", "s_name", "s_address", "s_phone", "total_revenue");
    }

    /**
     * Q16, parts/supplier relationship. The complained-about suppliers are broadcast to PARTSUPP, which anti-joins
     * them where it lies, and the qualifying parts (key, brand, type, size) meet it as {@link TpchJoin#Q16_PARTS}
     * says; the
     * (brand, type, size, supplier) combinations are deduplicated locally, repartitioned on (brand, type, size) and
     * counted distinct there; gathered and sorted. NOT IN is an anti join here: s_suppkey is never NULL.
     */
    static PlanNode q16(Distribution distribution) {
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_brand", "p_type", "p_size")
                .filter(and(
                        ne(col("p_brand"), lit("Brand#45")),
                        notLike(col("p_type"), "MEDIUM POLISHED%"),
                        in(col("p_size"), 49, 14, 23, 45, 19, 3, 36, 9)));
        PlanNode complained = scan(TpchTable.SUPPLIER, "s_suppkey", "s_comment")
                .filter(like(col("s_comment"), "%Customer%Complaints%"))
                .select("s_suppkey")
                .broadcast();
        List<String> groups = keys("p_brand", "p_type", "p_size");
        PlanNode offers = scan(TpchTable.PART_SUPPLIER, "ps_partkey", "ps_suppkey")
                .join(JoinType.ANTI, complained, "ps_suppkey", "s_suppkey");
        return distribution
                .join(TpchJoin.Q16_PARTS, offers, parts, "ps_partkey", "p_partkey")
                .aggregate(keys("p_brand", "p_type", "p_size", "ps_suppkey"))
                .repartition(groups.toArray(String[]::new))
                .aggregate(groups, countDistinct(col("ps_suppkey"), "supplier_cnt"))
                .gather()
                .sort(desc("supplier_cnt"), asc("p_brand"), asc("p_type"), asc("p_size"));
    }

    /** The LINEITEMs (where they lie) of the Brand#23 MED BOX parts, which are broadcast. */
    private static PlanNode medBoxLines() {
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_brand", "p_container")
                .filter(and(eq(col("p_brand"), lit("Brand#23")), eq(col("p_container"), lit("MED BOX"))))
                .select("p_partkey")
                .broadcast();
        return scan(TpchTable.LINE_ITEM, "l_partkey", "l_quantity", "l_extendedprice")
                .join(JoinType.SEMI, parts, "l_partkey", "p_partkey");
    }

    /**
     * Q17, small-quantity-order revenue. The average quantity per part (the correlated subquery) is partial over the
     * parts' LINEITEMs where they lie, broadcast and finished on every node; the same LINEITEMs join it locally with
     * {@code l_quantity < 0.2 * avg} (DOUBLE, as DuckDB) as the residual; every node sums its lines (one-phase, so
     * one row even when it has none: a NULL, which the second sum ignores), node 0 sums the gathered node sums and
     * divides by 7. At SF 0.01 no part is Brand#23 MED BOX (the answer is NULL); the gathered NULLs are then all
     * that moves, and TpchSessionIT/TpchCommandIT expect every query to move some bytes.
     */
    static PlanNode q17() {
        AggregateCall[] average = {sum(col("l_quantity"), "sum_qty"), countStar("lines")};
        PlanNode threshold = medBoxLines()
                .partialAggregate(keys("l_partkey"), average)
                .broadcast()
                .finalAggregate(keys("l_partkey"), average)
                .project(
                        as(col("l_partkey"), "a_partkey"),
                        as(mul(decimal("0.2"), div(col("sum_qty"), col("lines"))), "threshold"));
        return medBoxLines()
                .join(
                        JoinType.INNER,
                        threshold,
                        keys("l_partkey"),
                        keys("a_partkey"),
                        lt(col("l_quantity"), col("threshold")),
                        keys("l_extendedprice"))
                .aggregate(keys(), sum(col("l_extendedprice"), "node_total"))
                .gather()
                .aggregate(keys(), sum(col("node_total"), "total"))
                .project(as(div(col("total"), decimal("7.0")), "avg_yearly"));
    }

    /**
     * Q20, potential part promotion. The forest parts meet PARTSUPP as {@link TpchJoin#Q20_PARTS} says (broadcast to
     * it; in place under first-key placement), their PARTSUPP rows are broadcast to the year's
     * LINEITEMs, which join them where they lie; the quantity per (part, supplier) is partial there, repartitioned
     * and finished, compared to half the stock exactly, and the surviving supplier keys (deduplicated locally) are
     * broadcast to CANADA's suppliers; gathered and sorted.
     */
    static PlanNode q20(Distribution distribution) {
        PlanNode forestParts = scan(TpchTable.PART, "p_partkey", "p_name")
                .filter(like(col("p_name"), "forest%"))
                .select("p_partkey");
        PlanNode stock = distribution
                .join(
                        TpchJoin.Q20_PARTS,
                        scan(TpchTable.PART_SUPPLIER, "ps_partkey", "ps_suppkey", "ps_availqty"),
                        forestParts,
                        "ps_partkey",
                        "p_partkey")
                .broadcast();
        PlanNode excessSuppliers = scan(TpchTable.LINE_ITEM, "l_partkey", "l_suppkey", "l_quantity", "l_shipdate")
                .filter(and(ge(col("l_shipdate"), date("1994-01-01")), lt(col("l_shipdate"), date("1995-01-01"))))
                .join(stock, keys("l_partkey", "l_suppkey"), keys("ps_partkey", "ps_suppkey"))
                .distributedAggregate(keys("ps_partkey", "ps_suppkey", "ps_availqty"), sum(col("l_quantity"), "qty"))
                .filter(gt(col("ps_availqty"), mul(decimal("0.5"), col("qty"))))
                .aggregate(keys("ps_suppkey"))
                .broadcast();
        return scan(TpchTable.SUPPLIER, "s_suppkey", "s_name", "s_address", "s_nationkey")
                .join(JoinType.SEMI, nationNamed("CANADA"), "s_nationkey", "n_nationkey")
                .join(JoinType.SEMI, excessSuppliers, "s_suppkey", "ps_suppkey")
                .select("s_name", "s_address")
                .gather()
                .sort(asc("s_name"));
    }

    /**
     * Q21, suppliers who kept orders waiting. SAUDI ARABIA's suppliers are broadcast to the late LINEITEMs; those
     * lines (order, line number, supplier, name) meet the F-status ORDERS as {@link TpchJoin#Q21_LINEITEMS} says
     * and the survivors every LINEITEM of their orders as {@link TpchJoin#Q21_ORDERS} says (broadcast; in place under
     * first-key placement), where the lines of other suppliers and the late ones among them are counted per
     * candidate line: partial there, repartitioned, finished (one phase where an order's lines lie on one node). EXISTS is "others > 0", NOT EXISTS "late
     * others = 0". Waiting lines per supplier are gathered and finished on node 0.
     */
    static PlanNode q21(Distribution distribution) {
        PlanNode saudiSuppliers = scan(TpchTable.SUPPLIER, "s_suppkey", "s_name", "s_nationkey")
                .join(JoinType.SEMI, nationNamed("SAUDI ARABIA"), "s_nationkey", "n_nationkey")
                .select("s_suppkey", "s_name")
                .broadcast();
        PlanNode lateLines = scan(
                        TpchTable.LINE_ITEM, "l_orderkey", "l_linenumber", "l_suppkey", "l_commitdate", "l_receiptdate")
                .filter(gt(col("l_receiptdate"), col("l_commitdate")))
                .join(saudiSuppliers, keys("l_suppkey"), keys("s_suppkey"))
                .project(
                        as(col("l_orderkey"), "x_orderkey"),
                        as(col("l_linenumber"), "x_linenumber"),
                        as(col("l_suppkey"), "x_suppkey"),
                        column("s_name"));
        PlanNode candidates = distribution
                .join(
                        TpchJoin.Q21_LINEITEMS,
                        scan(TpchTable.ORDERS, "o_orderkey", "o_orderstatus")
                                .filter(eq(col("o_orderstatus"), lit("F"))),
                        lateLines,
                        "o_orderkey",
                        "x_orderkey")
                .select("x_orderkey", "x_linenumber", "x_suppkey", "s_name");
        Expression other = ne(col("l_suppkey"), col("x_suppkey"));
        List<String> candidate = keys("x_orderkey", "x_linenumber", "x_suppkey", "s_name");
        AggregateCall waiting = countStar("numwait");
        PlanNode lines = scan(TpchTable.LINE_ITEM, "l_orderkey", "l_suppkey", "l_commitdate", "l_receiptdate");
        PlanNode counted = distribution
                .join(TpchJoin.Q21_ORDERS, lines, candidates, "l_orderkey", "x_orderkey")
                .project(
                        column("x_orderkey"),
                        column("x_linenumber"),
                        column("x_suppkey"),
                        column("s_name"),
                        as(caseWhen(other, lit(1), lit(0)), "other"),
                        as(
                                caseWhen(and(other, gt(col("l_receiptdate"), col("l_commitdate"))), lit(1), lit(0)),
                                "late_other"));
        return distribution
                .aggregate(counted, candidate, sum(col("other"), "others"), sum(col("late_other"), "late_others"))
                .filter(and(gt(col("others"), lit(0)), eq(col("late_others"), lit(0))))
                .partialAggregate(keys("s_name"), waiting)
                .gather()
                .finalAggregate(keys("s_name"), waiting)
                .topN(100, desc("numwait"), asc("s_name"));
    }

    /**
     * Q22, global sales opportunity. The average positive balance of the seven country codes (scalar subquery) is
     * partial, broadcast and finished on every node and joined on a constant key; the richer customers are
     * repartitioned on the customer, as are the (locally deduplicated) customer keys of ORDERS, and anti-joined
     * there (NOT EXISTS); count and balance per code are partial, gathered and finished on node 0.
     */
    static PlanNode q22() {
        Expression code = substring(col("c_phone"), 1, 2);
        AggregateCall[] average = {sum(col("c_acctbal"), "sum_bal"), countStar("customers")};
        PlanNode averageBalance = scan(TpchTable.CUSTOMER, "c_phone", "c_acctbal")
                .filter(and(gt(col("c_acctbal"), decimal("0.00")), in(code, COUNTRY_CODES)))
                .partialAggregate(keys(), average)
                .broadcast()
                .finalAggregate(keys(), average)
                .project(as(lit(1), "avg_key"), as(div(col("sum_bal"), col("customers")), "avg_bal"));
        PlanNode customersWithOrders =
                scan(TpchTable.ORDERS, "o_custkey").aggregate(keys("o_custkey")).repartition("o_custkey");
        AggregateCall[] sums = {countStar("numcust"), sum(col("c_acctbal"), "totacctbal")};
        return scan(TpchTable.CUSTOMER, "c_custkey", "c_phone", "c_acctbal")
                .filter(in(code, COUNTRY_CODES))
                .project(column("c_custkey"), as(code, "cntrycode"), column("c_acctbal"), as(lit(1), "balance_key"))
                .join(
                        JoinType.INNER,
                        averageBalance,
                        keys("balance_key"),
                        keys("avg_key"),
                        gt(col("c_acctbal"), col("avg_bal")),
                        keys("c_custkey", "cntrycode", "c_acctbal"))
                .repartition("c_custkey")
                .join(JoinType.ANTI, customersWithOrders, "c_custkey", "o_custkey")
                .partialAggregate(keys("cntrycode"), sums)
                .gather()
                .finalAggregate(keys("cntrycode"), sums)
                .sort(asc("cntrycode"));
    }
}
