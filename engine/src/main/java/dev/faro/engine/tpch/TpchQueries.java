package dev.faro.engine.tpch;

import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.date;
import static dev.faro.engine.expression.Expressions.decimal;
import static dev.faro.engine.expression.Expressions.eq;
import static dev.faro.engine.expression.Expressions.ge;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.mul;
import static dev.faro.engine.expression.Expressions.sub;
import static dev.faro.engine.plan.Plans.as;
import static dev.faro.engine.plan.Plans.asc;
import static dev.faro.engine.plan.Plans.column;
import static dev.faro.engine.plan.Plans.countStar;
import static dev.faro.engine.plan.Plans.desc;
import static dev.faro.engine.plan.Plans.keys;
import static dev.faro.engine.plan.Plans.sum;

import dev.faro.engine.expression.Expression;
import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Plans;
import dev.faro.engine.plan.TableScan;
import io.trino.tpch.TpchTable;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Hand-written distributed plans for TPC-H queries, shaped like TODS19's minimal-shuffle plans (Fig. 25) over the
 * random placement: the small, filtered side of each join is broadcast and the big tables (LINEITEM above all) never
 * move; what is repartitioned are partial aggregates (each plan's comment names what it moves when that is not so). Every plan ends in a GATHER to node 0, whose output is the answer
 * (column names and order as in the specification's query text). The same plans run on one node, where exchanges pass
 * rows through. They are correct for any placement; given {@link Placement#FIRST_KEY} in their {@link Distribution},
 * the joins of ORDERS with LINEITEM and of PART with PARTSUPP ({@link TpchJoin}) move nothing and aggregations on
 * those keys need no repartition.
 *
 * <p>This class is the registry ({@link #implemented()}, {@link #plan(int)}) and holds Q3, Q4 and Q10; the other
 * plans live in {@link TpchScanQueries} (LINEITEM with at most one small side), {@link TpchJoinQueries} (multi-way
 * joins) and {@link TpchSubqueryQueries} (hand-decorrelated subqueries).
 */
public final class TpchQueries {

    private static final Map<Integer, Function<Distribution, PlanNode>> PLANS = Map.ofEntries(
            Map.entry(1, distribution -> TpchScanQueries.q1()),
            Map.entry(2, TpchSubqueryQueries::q2),
            Map.entry(3, TpchQueries::q3),
            Map.entry(4, TpchQueries::q4),
            Map.entry(5, TpchJoinQueries::q5),
            Map.entry(6, distribution -> TpchScanQueries.q6()),
            Map.entry(7, TpchJoinQueries::q7),
            Map.entry(8, TpchJoinQueries::q8),
            Map.entry(9, TpchJoinQueries::q9),
            Map.entry(10, TpchQueries::q10),
            Map.entry(11, TpchSubqueryQueries::q11),
            Map.entry(12, TpchScanQueries::q12),
            Map.entry(13, distribution -> TpchSubqueryQueries.q13()),
            Map.entry(14, distribution -> TpchScanQueries.q14()),
            Map.entry(15, distribution -> TpchSubqueryQueries.q15()),
            Map.entry(16, TpchSubqueryQueries::q16),
            Map.entry(17, distribution -> TpchSubqueryQueries.q17()),
            Map.entry(18, TpchJoinQueries::q18),
            Map.entry(19, distribution -> TpchScanQueries.q19()),
            Map.entry(20, TpchSubqueryQueries::q20),
            Map.entry(21, TpchSubqueryQueries::q21),
            Map.entry(22, distribution -> TpchSubqueryQueries.q22()));

    private TpchQueries() {}

    /** The numbers of the queries that have a plan, ascending. */
    public static SortedSet<Integer> implemented() {
        return new TreeSet<>(PLANS.keySet());
    }

    /** The plan of query {@code number} for {@link Distribution#DEFAULT}; the error names the implemented queries. */
    public static PlanNode plan(int number) {
        return plan(number, Distribution.DEFAULT);
    }

    /**
     * The plan of query {@code number} for the placement and parallel units of {@code distribution}; the error names
     * the implemented queries.
     */
    public static PlanNode plan(int number, Distribution distribution) {
        Function<Distribution, PlanNode> plan = PLANS.get(number);
        if (plan == null) {
            throw new IllegalArgumentException("TPC-H query " + number + " has no plan; implemented: " + implemented());
        }
        return plan.apply(distribution);
    }

    /**
     * Q3, shipping priority. BUILDING customers (keys only) are broadcast and semi-join ORDERS; the qualifying orders
     * meet the LINEITEMs as {@link TpchJoin#Q3_ORDERS} says (broadcast to them; in place under first-key placement);
     * revenue per order is aggregated partially where the lines are, repartitioned on the order, finished (one phase
     * where an order's lines all lie on one node), and the top 10 of every node gathered.
     */
    static PlanNode q3(Distribution distribution) {
        PlanNode buildingCustomers = scan(TpchTable.CUSTOMER, "c_custkey", "c_mktsegment")
                .filter(eq(col("c_mktsegment"), lit("BUILDING")))
                .select("c_custkey")
                .broadcast();
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_custkey", "o_orderdate", "o_shippriority")
                .filter(lt(col("o_orderdate"), date("1995-03-15")))
                .join(JoinType.SEMI, buildingCustomers, "o_custkey", "c_custkey")
                .select("o_orderkey", "o_orderdate", "o_shippriority");
        AggregateCall revenue = sum(col("volume"), "revenue");
        PlanNode lines = scan(TpchTable.LINE_ITEM, "l_orderkey", "l_extendedprice", "l_discount", "l_shipdate")
                .filter(gt(col("l_shipdate"), date("1995-03-15")));
        PlanNode volumes = distribution
                .join(TpchJoin.Q3_ORDERS, lines, orders, "l_orderkey", "o_orderkey")
                .project(
                        column("l_orderkey"),
                        as(discountedPrice(), "volume"),
                        column("o_orderdate"),
                        column("o_shippriority"));
        return distribution
                .aggregate(volumes, keys("l_orderkey", "o_orderdate", "o_shippriority"), revenue)
                .topN(10, desc("revenue"), asc("o_orderdate"))
                .gather()
                .topN(10, desc("revenue"), asc("o_orderdate"))
                .select("l_orderkey", "revenue", "o_orderdate", "o_shippriority");
    }

    /**
     * Q4, order priority checking. The quarter's orders meet the late LINEITEMs as {@link TpchJoin#Q4_ORDERS} says
     * (broadcast to them; in place under first-key placement); each node keeps one row per order it saw, the orders
     * are deduplicated (EXISTS counts an order once, however many nodes hold late lines of it: repartitioned first
     * unless an order's lines all lie on one node), then counted per priority.
     */
    static PlanNode q4(Distribution distribution) {
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_orderdate", "o_orderpriority")
                .filter(and(ge(col("o_orderdate"), date("1993-07-01")), lt(col("o_orderdate"), date("1993-10-01"))))
                .select("o_orderkey", "o_orderpriority");
        PlanNode lateLines = scan(TpchTable.LINE_ITEM, "l_orderkey", "l_commitdate", "l_receiptdate")
                .filter(lt(col("l_commitdate"), col("l_receiptdate")));
        return distribution
                .aggregate(
                        distribution.join(TpchJoin.Q4_ORDERS, lateLines, orders, "l_orderkey", "o_orderkey"),
                        keys("o_orderkey", "o_orderpriority"))
                .distributedAggregate(keys("o_orderpriority"), countStar("order_count"))
                .gather()
                .sort(asc("o_orderpriority"));
    }

    /**
     * Q10, returned items. The quarter's orders (key and customer, TODS19: "ORDERS is broadcast") meet the returned
     * LINEITEMs as {@link TpchJoin#Q10_ORDERS} says (broadcast to them; in place under first-key placement); revenue per customer is aggregated partially, the partial sums are broadcast and
     * finished on every node, where they join the local CUSTOMER rows and the replicated NATION; the top 20 of every
     * node are gathered.
     */
    static PlanNode q10(Distribution distribution) {
        PlanNode orders = scan(TpchTable.ORDERS, "o_orderkey", "o_custkey", "o_orderdate")
                .filter(and(ge(col("o_orderdate"), date("1993-10-01")), lt(col("o_orderdate"), date("1994-01-01"))))
                .select("o_orderkey", "o_custkey");
        AggregateCall revenue = sum(col("volume"), "revenue");
        PlanNode returned = scan(TpchTable.LINE_ITEM, "l_orderkey", "l_extendedprice", "l_discount", "l_returnflag")
                .filter(eq(col("l_returnflag"), lit("R")));
        PlanNode revenuePerCustomer = distribution
                .join(TpchJoin.Q10_ORDERS, returned, orders, "l_orderkey", "o_orderkey")
                .project(column("o_custkey"), as(discountedPrice(), "volume"))
                .partialAggregate(keys("o_custkey"), revenue)
                .broadcast()
                .finalAggregate(keys("o_custkey"), revenue);
        return scan(
                        TpchTable.CUSTOMER,
                        "c_custkey",
                        "c_name",
                        "c_address",
                        "c_nationkey",
                        "c_phone",
                        "c_acctbal",
                        "c_comment")
                .join(revenuePerCustomer, keys("c_custkey"), keys("o_custkey"))
                .join(scan(TpchTable.NATION, "n_nationkey", "n_name"), keys("c_nationkey"), keys("n_nationkey"))
                .topN(20, desc("revenue"))
                .gather()
                .topN(20, desc("revenue"))
                .select("c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment");
    }

    /** {@code l_extendedprice * (1 - l_discount)}, exact at scale 4. */
    static Expression discountedPrice() {
        return mul(col("l_extendedprice"), sub(decimal("1"), col("l_discount")));
    }

    /** Scans {@code columns} of a TPC-H table. */
    static TableScan scan(TpchTable<?> table, String... columns) {
        return Plans.scan(table.getTableName(), TpchTables.schema(table), columns);
    }
}
