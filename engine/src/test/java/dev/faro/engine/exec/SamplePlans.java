package dev.faro.engine.exec;

import static dev.faro.engine.expression.Expressions.*;
import static dev.faro.engine.plan.Plans.*;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;

/**
 * Q3-, Q4- and Q10-shaped plans over {@link TestTables#tpchLike}, written distributed-ready: exchanges where a
 * multi-node plan needs them (they pass through on one node).
 */
public final class SamplePlans {

    private SamplePlans() {}

    private static final Expression REVENUE = mul(col("l_extendedprice"), sub(decimal("1.00"), col("l_discount")));

    /** Q3: BUILDING customers (broadcast), their early orders, late line items (both repartitioned). */
    public static PlanNode q3() {
        PlanNode customers = scan("customer", TestTables.CUSTOMER, "c_custkey", "c_mktsegment")
                .filter(eq(col("c_mktsegment"), lit("BUILDING")))
                .select("c_custkey")
                .broadcast();
        PlanNode orders = scan("orders", TestTables.ORDERS, "o_orderkey", "o_custkey", "o_orderdate")
                .filter(lt(col("o_orderdate"), date("1995-03-15")))
                .join(JoinType.SEMI, customers, "o_custkey", "c_custkey")
                .select("o_orderkey", "o_orderdate")
                .repartition("o_orderkey");
        return scan("lineitem", TestTables.LINEITEM, "l_orderkey", "l_extendedprice", "l_discount", "l_shipdate")
                .filter(gt(col("l_shipdate"), date("1995-03-15")))
                .repartition("l_orderkey")
                .join(orders, keys("l_orderkey"), keys("o_orderkey"))
                .project(
                        as(col("l_orderkey"), "l_orderkey"),
                        as(col("o_orderdate"), "o_orderdate"),
                        as(REVENUE, "revenue"))
                .aggregate(keys("l_orderkey", "o_orderdate"), sum(col("revenue"), "revenue"))
                .topN(10, desc("revenue"), asc("o_orderdate"), asc("l_orderkey"))
                .gather()
                .topN(10, desc("revenue"), asc("o_orderdate"), asc("l_orderkey"));
    }

    /** Q4: orders of a quarter with a late line item, counted by priority (two-phase aggregation). */
    public static PlanNode q4() {
        PlanNode late = scan("lineitem", TestTables.LINEITEM, "l_orderkey", "l_commitdate", "l_receiptdate")
                .filter(lt(col("l_commitdate"), col("l_receiptdate")))
                .select("l_orderkey")
                .repartition("l_orderkey");
        return scan("orders", TestTables.ORDERS, "o_orderkey", "o_orderdate", "o_orderpriority")
                .filter(and(ge(col("o_orderdate"), date("1993-07-01")), lt(col("o_orderdate"), date("1993-10-01"))))
                .repartition("o_orderkey")
                .join(JoinType.SEMI, late, "o_orderkey", "l_orderkey")
                .distributedAggregate(keys("o_orderpriority"), countStar("order_count"))
                .gather()
                .sort(asc("o_orderpriority"));
    }

    /** Q10: returned items' revenue per customer, top 20. */
    public static PlanNode q10() {
        PlanNode orders = scan("orders", TestTables.ORDERS, "o_orderkey", "o_custkey", "o_orderdate")
                .filter(and(ge(col("o_orderdate"), date("1993-10-01")), lt(col("o_orderdate"), date("1994-01-01"))))
                .repartition("o_orderkey");
        PlanNode returned = scan(
                        "lineitem", TestTables.LINEITEM, "l_orderkey", "l_extendedprice", "l_discount", "l_returnflag")
                .filter(eq(col("l_returnflag"), lit("R")))
                .repartition("l_orderkey")
                .join(orders, keys("l_orderkey"), keys("o_orderkey"))
                .project(as(col("o_custkey"), "o_custkey"), as(REVENUE, "revenue"))
                .repartition("o_custkey");
        PlanNode customers = scan("customer", TestTables.CUSTOMER, "c_custkey", "c_name", "c_nationkey")
                .repartition("c_custkey");
        return returned.join(customers, keys("o_custkey"), keys("c_custkey"))
                .aggregate(keys("c_custkey", "c_name", "c_nationkey"), sum(col("revenue"), "revenue"))
                .topN(20, desc("revenue"), asc("c_custkey"))
                .gather()
                .topN(20, desc("revenue"), asc("c_custkey"));
    }

    /** A plan with a LEFT join, a residual and a global two-phase aggregate (AVG, MIN, MAX, COUNT). */
    public static PlanNode ordersPerCustomer() {
        PlanNode orders = scan("orders", TestTables.ORDERS, "o_orderkey", "o_custkey", "o_comment")
                .repartition("o_custkey");
        return scan("customer", TestTables.CUSTOMER, "c_custkey", "c_nationkey")
                .repartition("c_custkey")
                .join(
                        JoinType.LEFT,
                        orders,
                        keys("c_custkey"),
                        keys("o_custkey"),
                        notLike(col("o_comment"), "%special%requests%"),
                        java.util.List.of())
                .aggregate(keys("c_custkey"), count(col("o_orderkey"), "c_count"))
                .distributedAggregate(keys("c_count"), countStar("custdist"))
                .gather()
                .sort(desc("custdist"), desc("c_count"));
    }
}
