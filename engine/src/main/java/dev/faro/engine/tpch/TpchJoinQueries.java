package dev.faro.engine.tpch;

import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.between;
import static dev.faro.engine.expression.Expressions.caseWhen;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.date;
import static dev.faro.engine.expression.Expressions.div;
import static dev.faro.engine.expression.Expressions.eq;
import static dev.faro.engine.expression.Expressions.ge;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.in;
import static dev.faro.engine.expression.Expressions.like;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.mul;
import static dev.faro.engine.expression.Expressions.or;
import static dev.faro.engine.expression.Expressions.sub;
import static dev.faro.engine.expression.Expressions.year;
import static dev.faro.engine.plan.Plans.as;
import static dev.faro.engine.plan.Plans.asc;
import static dev.faro.engine.plan.Plans.column;
import static dev.faro.engine.plan.Plans.desc;
import static dev.faro.engine.plan.Plans.keys;
import static dev.faro.engine.plan.Plans.sum;
import static dev.faro.engine.tpch.TpchQueries.discountedPrice;
import static dev.faro.engine.tpch.TpchQueries.scan;

import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;
import io.trino.tpch.TpchTable;
import java.util.List;

/**
 * TPC-H multi-way joins around LINEITEM (Q5, Q7, Q8, Q9, Q18). The filtered dimension sides (customers or
 * suppliers of a region or nation, joined locally with the replicated NATION and REGION; parts of a type; the orders
 * they select) are broadcast, LINEITEM is joined where it lies, and partial aggregates are gathered or repartitioned.
 */
final class TpchJoinQueries {

    private TpchJoinQueries() {}

    /** The keys of the nations of region {@code region} (NATION and REGION are on every node: no exchange). */
    private static PlanNode nationsOf(String region) {
        PlanNode regions = scan(TpchTable.REGION, "r_regionkey", "r_name").filter(eq(col("r_name"), lit(region)));
        return scan(TpchTable.NATION, "n_nationkey", "n_name", "n_regionkey")
                .join(regions, keys("n_regionkey"), keys("r_regionkey"));
    }

    /** {@code s_suppkey} and its nation's name as {@code nationColumn}, of every local SUPPLIER row. */
    private static PlanNode supplierNations(String nationColumn) {
        return scan(TpchTable.SUPPLIER, "s_suppkey", "s_nationkey")
                .join(scan(TpchTable.NATION, "n_nationkey", "n_name"), keys("s_nationkey"), keys("n_nationkey"))
                .project(column("s_suppkey"), as(col("n_name"), nationColumn));
    }

    /**
     * Q5, local supplier volume. ASIA's customers (key, nation) are broadcast to ORDERS; the year's orders of those
     * customers (key, customer nation) meet LINEITEM as {@link TpchJoin#Q5_ORDERS} says (broadcast to it); so are ASIA's suppliers (key, nation); LINEITEM
     * joins both where it lies, the supplier on (supplier key, nation) so that customer and supplier share the
     * nation; revenue per nation name is partial there and finished on node 0.
     */
    static PlanNode q5(Distribution distribution) {
        PlanNode asianNations = nationsOf("ASIA").select("n_nationkey");
        PlanNode customers = scan(TpchTable.CUSTOMER, "c_custkey", "c_nationkey")
                .join(JoinType.SEMI, asianNations, "c_nationkey", "n_nationkey")
                .broadcast();
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_custkey", "o_orderdate")
                .filter(and(ge(col("o_orderdate"), date("1994-01-01")), lt(col("o_orderdate"), date("1995-01-01"))))
                .join(customers, keys("o_custkey"), keys("c_custkey"))
                .select("o_orderkey", "c_nationkey");
        PlanNode suppliers = scan(TpchTable.SUPPLIER, "s_suppkey", "s_nationkey")
                .join(JoinType.SEMI, nationsOf("ASIA").select("n_nationkey"), "s_nationkey", "n_nationkey")
                .broadcast();
        AggregateCall revenue = sum(col("volume"), "revenue");
        PlanNode lines = scan(TpchTable.LINE_ITEM, "l_orderkey", "l_suppkey", "l_extendedprice", "l_discount");
        return distribution
                .join(TpchJoin.Q5_ORDERS, lines, orders, "l_orderkey", "o_orderkey")
                .join(suppliers, keys("l_suppkey", "c_nationkey"), keys("s_suppkey", "s_nationkey"))
                .join(scan(TpchTable.NATION, "n_nationkey", "n_name"), keys("s_nationkey"), keys("n_nationkey"))
                .project(column("n_name"), as(discountedPrice(), "volume"))
                .partialAggregate(keys("n_name"), revenue)
                .gather()
                .finalAggregate(keys("n_name"), revenue)
                .sort(desc("revenue"));
    }

    /**
     * Q7, volume shipping. FRANCE's and GERMANY's suppliers (key, nation) are broadcast to LINEITEM; their customers
     * are broadcast to ORDERS, whose matching orders (key, customer nation) meet LINEITEM as
     * {@link TpchJoin#Q7_ORDERS} says; the two-year LINEITEMs join the suppliers where they lie, then the orders; revenue per (supplier nation, customer nation, year) is partial there and
     * finished on node 0.
     */
    static PlanNode q7(Distribution distribution) {
        PlanNode suppliers = supplierNations("supp_nation")
                .filter(in(col("supp_nation"), "FRANCE", "GERMANY"))
                .broadcast();
        PlanNode customers = scan(TpchTable.CUSTOMER, "c_custkey", "c_nationkey")
                .join(scan(TpchTable.NATION, "n_nationkey", "n_name"), keys("c_nationkey"), keys("n_nationkey"))
                .filter(in(col("n_name"), "FRANCE", "GERMANY"))
                .project(column("c_custkey"), as(col("n_name"), "cust_nation"))
                .broadcast();
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_custkey")
                .join(customers, keys("o_custkey"), keys("c_custkey"))
                .select("o_orderkey", "cust_nation");
        AggregateCall revenue = sum(col("volume"), "revenue");
        List<String> groups = keys("supp_nation", "cust_nation", "l_year");
        PlanNode lines = scan(
                        TpchTable.LINE_ITEM, "l_orderkey", "l_suppkey", "l_extendedprice", "l_discount", "l_shipdate")
                .filter(between(col("l_shipdate"), date("1995-01-01"), date("1996-12-31")))
                .join(suppliers, keys("l_suppkey"), keys("s_suppkey"));
        return distribution
                .join(TpchJoin.Q7_ORDERS, lines, orders, "l_orderkey", "o_orderkey")
                .filter(or(
                        and(eq(col("supp_nation"), lit("FRANCE")), eq(col("cust_nation"), lit("GERMANY"))),
                        and(eq(col("supp_nation"), lit("GERMANY")), eq(col("cust_nation"), lit("FRANCE")))))
                .project(
                        column("supp_nation"),
                        column("cust_nation"),
                        as(year(col("l_shipdate")), "l_year"),
                        as(discountedPrice(), "volume"))
                .partialAggregate(groups, revenue)
                .gather()
                .finalAggregate(groups, revenue)
                .sort(asc("supp_nation"), asc("cust_nation"), asc("l_year"));
    }

    /**
     * Q8, national market share. The ECONOMY ANODIZED STEEL parts, every supplier (key, nation name) and the
     * two years' orders of AMERICA's customers (key, year; the customers broadcast to ORDERS first) meet LINEITEM
     * as {@link TpchJoin#Q8_ORDERS} says (broadcast to it; the parts and suppliers are), which joins them; the two sums per year are partial there, finished on node 0 and
     * divided there (DOUBLE).
     */
    static PlanNode q8(Distribution distribution) {
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_type")
                .filter(eq(col("p_type"), lit("ECONOMY ANODIZED STEEL")))
                .select("p_partkey")
                .broadcast();
        PlanNode customers = scan(TpchTable.CUSTOMER, "c_custkey", "c_nationkey")
                .join(JoinType.SEMI, nationsOf("AMERICA").select("n_nationkey"), "c_nationkey", "n_nationkey")
                .select("c_custkey")
                .broadcast();
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_custkey", "o_orderdate")
                .filter(between(col("o_orderdate"), date("1995-01-01"), date("1996-12-31")))
                .join(JoinType.SEMI, customers, "o_custkey", "c_custkey")
                .project(column("o_orderkey"), as(year(col("o_orderdate")), "o_year"));
        PlanNode suppliers = supplierNations("nation").broadcast();
        AggregateCall[] sums = {
            sum(caseWhen(eq(col("nation"), lit("BRAZIL")), col("volume"), lit(0)), "brazil"),
            sum(col("volume"), "total")
        };
        PlanNode steelLines = scan(
                        TpchTable.LINE_ITEM, "l_orderkey", "l_partkey", "l_suppkey", "l_extendedprice", "l_discount")
                .join(JoinType.SEMI, parts, "l_partkey", "p_partkey");
        return distribution
                .join(TpchJoin.Q8_ORDERS, steelLines, orders, "l_orderkey", "o_orderkey")
                .join(suppliers, keys("l_suppkey"), keys("s_suppkey"))
                .project(column("o_year"), column("nation"), as(discountedPrice(), "volume"))
                .partialAggregate(keys("o_year"), sums)
                .gather()
                .finalAggregate(keys("o_year"), sums)
                .project(column("o_year"), as(div(col("brazil"), col("total")), "mkt_share"))
                .sort(asc("o_year"));
    }

    /**
     * Q9, product type profit. The PARTSUPP rows of the green parts (the parts meet PARTSUPP first, as
     * {@link TpchJoin#Q9_PARTS} says) and every supplier (key, nation name) are broadcast to LINEITEM, which joins
     * them where it lies; the profit is summed per (order, nation) on each node, and those node-local sums
     * (additive, so any split is fine) meet ORDERS as {@link TpchJoin#Q9_ORDERS} says: broadcast to ORDERS, which
     * then never moves, each sum meeting its order once where the order lies; or both repartitioned on the order;
     * or, under first-key placement, in place. Profit per (nation, year) is
     * partial there and finished on node 0.
     */
    static PlanNode q9(Distribution distribution) {
        PlanNode greenParts = scan(TpchTable.PART, "p_partkey", "p_name")
                .filter(like(col("p_name"), "%green%"))
                .select("p_partkey");
        PlanNode partSuppliers = distribution
                .join(
                        TpchJoin.Q9_PARTS,
                        scan(TpchTable.PART_SUPPLIER, "ps_partkey", "ps_suppkey", "ps_supplycost"),
                        greenParts,
                        "ps_partkey",
                        "p_partkey")
                .broadcast();
        PlanNode suppliers = supplierNations("nation").broadcast();
        PlanNode profitPerOrder = scan(
                        TpchTable.LINE_ITEM,
                        "l_orderkey",
                        "l_partkey",
                        "l_suppkey",
                        "l_quantity",
                        "l_extendedprice",
                        "l_discount")
                .join(partSuppliers, keys("l_partkey", "l_suppkey"), keys("ps_partkey", "ps_suppkey"))
                .join(suppliers, keys("l_suppkey"), keys("s_suppkey"))
                .project(
                        column("l_orderkey"),
                        column("nation"),
                        as(sub(discountedPrice(), mul(col("ps_supplycost"), col("l_quantity"))), "amount"))
                .aggregate(keys("l_orderkey", "nation"), sum(col("amount"), "order_profit"));
        AggregateCall profit = sum(col("order_profit"), "sum_profit");
        List<String> groups = keys("nation", "o_year");
        return distribution
                .join(
                        TpchJoin.Q9_ORDERS,
                        scan(TpchTable.ORDERS, "o_orderkey", "o_orderdate"),
                        profitPerOrder,
                        "o_orderkey",
                        "l_orderkey")
                .project(column("nation"), as(year(col("o_orderdate")), "o_year"), column("order_profit"))
                .partialAggregate(groups, profit)
                .gather()
                .finalAggregate(groups, profit)
                .sort(asc("nation"), desc("o_year"));
    }

    /**
     * Q18, large volume customers. LINEITEM's quantity per order is partial where the lines are, repartitioned on the
     * order and finished (one phase where an order's lines all lie on one node); the few orders over 300 meet ORDERS
     * as {@link TpchJoin#Q18_LINEITEMS} says (broadcast to it), the matching orders are broadcast to CUSTOMER; the top
     * 100 of every node are gathered. The outer SUM(l_quantity) is the subquery's sum of the same order.
     */
    static PlanNode q18(Distribution distribution) {
        PlanNode largeOrders = distribution
                .aggregate(
                        scan(TpchTable.LINE_ITEM, "l_orderkey", "l_quantity"),
                        keys("l_orderkey"),
                        sum(col("l_quantity"), "sum_qty"))
                .filter(gt(col("sum_qty"), lit(300)));
        PlanNode orders = distribution
                .join(
                        TpchJoin.Q18_LINEITEMS,
                        scan(TpchTable.ORDERS, "o_orderkey", "o_custkey", "o_orderdate", "o_totalprice"),
                        largeOrders,
                        "o_orderkey",
                        "l_orderkey")
                .broadcast();
        return scan(TpchTable.CUSTOMER, "c_custkey", "c_name")
                .join(orders, keys("c_custkey"), keys("o_custkey"))
                .topN(100, desc("o_totalprice"), asc("o_orderdate"))
                .gather()
                .topN(100, desc("o_totalprice"), asc("o_orderdate"))
                .select("c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice", "sum_qty");
    }
}
