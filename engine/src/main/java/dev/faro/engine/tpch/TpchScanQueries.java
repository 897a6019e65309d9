package dev.faro.engine.tpch;

import static dev.faro.engine.expression.Expressions.add;
import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.between;
import static dev.faro.engine.expression.Expressions.caseWhen;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.date;
import static dev.faro.engine.expression.Expressions.decimal;
import static dev.faro.engine.expression.Expressions.div;
import static dev.faro.engine.expression.Expressions.eq;
import static dev.faro.engine.expression.Expressions.ge;
import static dev.faro.engine.expression.Expressions.in;
import static dev.faro.engine.expression.Expressions.le;
import static dev.faro.engine.expression.Expressions.like;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.mul;
import static dev.faro.engine.expression.Expressions.ne;
import static dev.faro.engine.expression.Expressions.or;
import static dev.faro.engine.plan.Plans.as;
import static dev.faro.engine.plan.Plans.asc;
import static dev.faro.engine.plan.Plans.column;
import static dev.faro.engine.plan.Plans.countStar;
import static dev.faro.engine.plan.Plans.keys;
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
 * TPC-H queries over LINEITEM and at most one small joined table (Q1, Q6, Q12, Q14, Q19): LINEITEM is filtered and
 * aggregated where it lies, only the other side (or, for Q12, the few qualifying lines) is broadcast, and the
 * partial aggregates of a handful of groups are gathered to node 0 and finished there.
 */
final class TpchScanQueries {

    private TpchScanQueries() {}

    /**
     * Q1, pricing summary. No join at all: every node aggregates its LINEITEMs into the four (flag, status) groups,
     * the partial states are gathered and finished on node 0. Each AVG is the exact DECIMAL sum divided by the count
     * once at the end (DOUBLE, as DuckDB's AVG of a DECIMAL): the same bits however the rows are spread, unlike
     * AVG's DOUBLE partial sums.
     */
    static PlanNode q1() {
        Expression discounted = discountedPrice();
        AggregateCall[] aggregates = {
            sum(col("l_quantity"), "sum_qty"),
            sum(col("l_extendedprice"), "sum_base_price"),
            sum(discounted, "sum_disc_price"),
            sum(mul(discounted, add(decimal("1"), col("l_tax"))), "sum_charge"),
            sum(col("l_discount"), "sum_disc"),
            countStar("count_order")
        };
        List<String> groups = keys("l_returnflag", "l_linestatus");
        return scan(
                        TpchTable.LINE_ITEM,
                        "l_returnflag",
                        "l_linestatus",
                        "l_quantity",
                        "l_extendedprice",
                        "l_discount",
                        "l_tax",
                        "l_shipdate")
                .filter(le(col("l_shipdate"), date("1998-09-02"))) // DATE '1998-12-01' - INTERVAL '90' DAY
                .partialAggregate(groups, aggregates)
                .gather()
                .finalAggregate(groups, aggregates)
                .project(
                        column("l_returnflag"),
                        column("l_linestatus"),
                        column("sum_qty"),
                        column("sum_base_price"),
                        column("sum_disc_price"),
                        column("sum_charge"),
                        as(div(col("sum_qty"), col("count_order")), "avg_qty"),
                        as(div(col("sum_base_price"), col("count_order")), "avg_price"),
                        as(div(col("sum_disc"), col("count_order")), "avg_disc"),
                        column("count_order"))
                .sort(asc("l_returnflag"), asc("l_linestatus"));
    }

    /** Q6, forecasting revenue change: a filtered global sum, partial on every node, finished on node 0. */
    static PlanNode q6() {
        return scan(TpchTable.LINE_ITEM, "l_extendedprice", "l_discount", "l_quantity", "l_shipdate")
                .filter(and(
                        ge(col("l_shipdate"), date("1994-01-01")),
                        lt(col("l_shipdate"), date("1995-01-01")),
                        between(col("l_discount"), decimal("0.05"), decimal("0.07")),
                        lt(col("l_quantity"), lit(24))))
                .distributedAggregate(keys(), sum(mul(col("l_extendedprice"), col("l_discount")), "revenue"));
    }

    /**
     * Q12, shipping modes. The few qualifying LINEITEMs (two modes, one year, late but shipped early; order key and
     * mode only) meet ORDERS as {@link TpchJoin#Q12_LINEITEMS} says: broadcast, each meeting its ORDERS row where that
     * row lies, so the big ORDERS never moves (in place under first-key placement); the
     * two counts per mode are aggregated partially there and finished on node 0.
     */
    static PlanNode q12(Distribution distribution) {
        PlanNode lines = scan(
                        TpchTable.LINE_ITEM, "l_orderkey", "l_shipmode", "l_commitdate", "l_receiptdate", "l_shipdate")
                .filter(and(
                        in(col("l_shipmode"), "MAIL", "SHIP"),
                        lt(col("l_commitdate"), col("l_receiptdate")),
                        lt(col("l_shipdate"), col("l_commitdate")),
                        ge(col("l_receiptdate"), date("1994-01-01")),
                        lt(col("l_receiptdate"), date("1995-01-01"))))
                .select("l_orderkey", "l_shipmode");
        Expression high = or(eq(col("o_orderpriority"), lit("1-URGENT")), eq(col("o_orderpriority"), lit("2-HIGH")));
        Expression low = and(ne(col("o_orderpriority"), lit("1-URGENT")), ne(col("o_orderpriority"), lit("2-HIGH")));
        AggregateCall[] counts = {sum(col("high"), "high_line_count"), sum(col("low"), "low_line_count")};
        return distribution
                .join(
                        TpchJoin.Q12_LINEITEMS,
                        scan(TpchTable.ORDERS, "o_orderkey", "o_orderpriority"),
                        lines,
                        "o_orderkey",
                        "l_orderkey")
                .project(
                        column("l_shipmode"),
                        as(caseWhen(high, lit(1), lit(0)), "high"),
                        as(caseWhen(low, lit(1), lit(0)), "low"))
                .partialAggregate(keys("l_shipmode"), counts)
                .gather()
                .finalAggregate(keys("l_shipmode"), counts)
                .sort(asc("l_shipmode"));
    }

    /**
     * Q14, promotion effect. PART (key and a 0/1 promotion flag) is broadcast to the month's LINEITEMs, which stay
     * where they are; the two revenue sums are partial there, finished on node 0, and divided there (DOUBLE, as
     * DuckDB's decimal division).
     */
    static PlanNode q14() {
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_type")
                .project(column("p_partkey"), as(caseWhen(like(col("p_type"), "PROMO%"), lit(1), lit(0)), "p_promo"))
                .broadcast();
        AggregateCall[] sums = {
            sum(caseWhen(eq(col("p_promo"), lit(1)), col("volume"), lit(0)), "promo"), sum(col("volume"), "total")
        };
        return scan(TpchTable.LINE_ITEM, "l_partkey", "l_extendedprice", "l_discount", "l_shipdate")
                .filter(and(ge(col("l_shipdate"), date("1995-09-01")), lt(col("l_shipdate"), date("1995-10-01"))))
                .join(parts, keys("l_partkey"), keys("p_partkey"))
                .project(column("p_promo"), as(discountedPrice(), "volume"))
                .distributedAggregate(keys(), sums)
                .project(as(div(mul(decimal("100.00"), col("promo")), col("total")), "promo_revenue"));
    }

    /**
     * Q19, discounted revenue. The PARTs of the three brand/container/size classes are broadcast to the air-shipped,
     * in-person LINEITEMs; the full three-way disjunction is the join's residual; a global sum as in Q6.
     */
    static PlanNode q19() {
        Expression class1 = and(
                eq(col("p_brand"), lit("Brand#12")),
                in(col("p_container"), "SM CASE", "SM BOX", "SM PACK", "SM PKG"),
                between(col("p_size"), lit(1), lit(5)));
        Expression class2 = and(
                eq(col("p_brand"), lit("Brand#23")),
                in(col("p_container"), "MED BAG", "MED BOX", "MED PKG", "MED PACK"),
                between(col("p_size"), lit(1), lit(10)));
        Expression class3 = and(
                eq(col("p_brand"), lit("Brand#34")),
                in(col("p_container"), "LG CASE", "LG BOX", "LG PACK", "LG PKG"),
                between(col("p_size"), lit(1), lit(15)));
        PlanNode parts = scan(TpchTable.PART, "p_partkey", "p_brand", "p_container", "p_size")
                .filter(or(class1, class2, class3))
                .broadcast();
        Expression residual = or(
                and(class1, ge(col("l_quantity"), lit(1)), le(col("l_quantity"), lit(11))),
                and(class2, ge(col("l_quantity"), lit(10)), le(col("l_quantity"), lit(20))),
                and(class3, ge(col("l_quantity"), lit(20)), le(col("l_quantity"), lit(30))));
        return scan(
                        TpchTable.LINE_ITEM,
                        "l_partkey",
                        "l_quantity",
                        "l_extendedprice",
                        "l_discount",
                        "l_shipmode",
                        "l_shipinstruct")
                .filter(and(
                        in(col("l_shipmode"), "AIR", "AIR REG"),
                        eq(col("l_shipinstruct"), lit("DELIVER IN PERSON")),
                        ge(col("l_quantity"), lit(1)),
                        le(col("l_quantity"), lit(30))))
                .join(JoinType.INNER, parts, keys("l_partkey"), keys("p_partkey"), residual, List.of())
                .project(as(discountedPrice(), "volume"))
                .distributedAggregate(keys(), sum(col("volume"), "revenue"));
    }
}
