package dev.faro.engine.tpcc;

import static dev.faro.engine.expression.Expressions.add;
import static dev.faro.engine.expression.Expressions.and;
import static dev.faro.engine.expression.Expressions.caseWhen;
import static dev.faro.engine.expression.Expressions.col;
import static dev.faro.engine.expression.Expressions.date;
import static dev.faro.engine.expression.Expressions.decimal;
import static dev.faro.engine.expression.Expressions.div;
import static dev.faro.engine.expression.Expressions.eq;
import static dev.faro.engine.expression.Expressions.ge;
import static dev.faro.engine.expression.Expressions.gt;
import static dev.faro.engine.expression.Expressions.like;
import static dev.faro.engine.expression.Expressions.lit;
import static dev.faro.engine.expression.Expressions.lt;
import static dev.faro.engine.expression.Expressions.mul;
import static dev.faro.engine.plan.Plans.as;
import static dev.faro.engine.plan.Plans.asc;
import static dev.faro.engine.plan.Plans.column;
import static dev.faro.engine.plan.Plans.countStar;
import static dev.faro.engine.plan.Plans.desc;
import static dev.faro.engine.plan.Plans.keys;
import static dev.faro.engine.plan.Plans.scan;
import static dev.faro.engine.plan.Plans.sum;

import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.PlanNode;
import java.util.List;

/**
 * DAIS16's three analytical queries over TPC-C (the paper's Listing 1.1) as distributed plans, and their SQL for an
 * oracle. Two deviations from the listing, both in the SQL too: Q2's {@code ol_id = i_id} (a misprint) is
 * {@code ol_i_id = i_id}, and Q1's and Q3's ORDER BY get the group keys as tie-breakers, so that the answer's order
 * is defined. Timestamps are dates ({@link TpccGenerator}).
 */
public final class TpccQueries {

    private TpccQueries() {}

    /** The query numbers: 1, 2, 3. */
    public static List<Integer> all() {
        return List.of(1, 2, 3);
    }

    public static PlanNode plan(int query) {
        return switch (query) {
            case 1 -> q1();
            case 2 -> q2();
            case 3 -> q3();
            default -> throw new IllegalArgumentException("DAIS16's TPC-C queries are 1, 2 and 3: " + query);
        };
    }

    /** The query's SQL over the generated tables (DuckDB's dialect), with the plan's deviations from the listing. */
    public static String sql(int query) {
        return switch (query) {
            case 1 -> """
                    select ol_o_id, ol_w_id, ol_d_id, sum(ol_amount) as revenue, o_entry_d
                    from order_line, orders, new_order, customer
                    where c_id = o_c_id and c_w_id = o_w_id and c_d_id = o_d_id
                      and no_w_id = o_w_id and no_d_id = o_d_id and no_o_id = o_id
                      and ol_w_id = o_w_id and ol_d_id = o_d_id and ol_o_id = o_id
                      and c_state like 'A%' and o_entry_d > date '2013-07-01'
                    group by ol_o_id, ol_w_id, ol_d_id, o_entry_d
                    having sum(ol_amount) > 80000.00
                    order by revenue desc, o_entry_d, ol_w_id, ol_d_id, ol_o_id""";
            case 2 -> """
                    select 100.00 * sum(case when i_data like 'a%' then ol_amount else 0 end)
                           / (1 + sum(ol_amount)) as promo_revenue
                    from order_line, item
                    where ol_i_id = i_id
                      and ol_delivery_d >= date '2013-06-01' and ol_delivery_d < date '2013-08-01'""";
            case 3 -> """
                    select ol_number, sum(ol_quantity) as sum_qty, sum(ol_amount) as sum_amount,
                           sum(ol_quantity) / count(*) as avg_qty, sum(ol_amount) / count(*) as avg_amount,
                           count(*) as count_order
                    from order_line
                    where ol_delivery_d > date '2013-07-01'
                    group by ol_number
                    order by sum(ol_quantity) desc, ol_number""";
            default -> throw new IllegalArgumentException("DAIS16's TPC-C queries are 1, 2 and 3: " + query);
        };
    }

    /**
     * Q1, the four-way join with the most shuffles: the few customers of states 'A%' are broadcast and meet the
     * recent orders where they lie; those orders, NEW_ORDER and ORDER_LINE are each repartitioned on the order's key
     * (warehouse, district, order), joined there and aggregated per order (complete, since an order's lines are all
     * on one node), filtered by HAVING, and gathered to node 0 for the ORDER BY. Five exchanges.
     */
    static PlanNode q1() {
        PlanNode customers = scan("customer", TpccGenerator.CUSTOMER, "c_id", "c_d_id", "c_w_id", "c_state")
                .filter(like(col("c_state"), "A%"))
                .select("c_w_id", "c_d_id", "c_id")
                .broadcast();
        PlanNode orders = scan("orders", TpccGenerator.ORDERS_SCHEMA, "o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d")
                .filter(gt(col("o_entry_d"), date("2013-07-01")))
                .join(customers, keys("o_w_id", "o_d_id", "o_c_id"), keys("c_w_id", "c_d_id", "c_id"))
                .select("o_w_id", "o_d_id", "o_id", "o_entry_d")
                .repartition("o_w_id", "o_d_id", "o_id");
        PlanNode newOrders = scan("new_order", TpccGenerator.NEW_ORDER, "no_o_id", "no_d_id", "no_w_id")
                .repartition("no_w_id", "no_d_id", "no_o_id");
        PlanNode newOrdersOfCustomers = orders.join(
                        newOrders, keys("o_w_id", "o_d_id", "o_id"), keys("no_w_id", "no_d_id", "no_o_id"))
                .select("o_w_id", "o_d_id", "o_id", "o_entry_d");
        AggregateCall revenue = sum(col("ol_amount"), "revenue");
        return scan("order_line", TpccGenerator.ORDER_LINE, "ol_o_id", "ol_d_id", "ol_w_id", "ol_amount")
                .repartition("ol_w_id", "ol_d_id", "ol_o_id")
                .join(newOrdersOfCustomers, keys("ol_w_id", "ol_d_id", "ol_o_id"), keys("o_w_id", "o_d_id", "o_id"))
                .aggregate(keys("ol_o_id", "ol_w_id", "ol_d_id", "o_entry_d"), revenue)
                .filter(gt(col("revenue"), decimal("80000.00")))
                .gather()
                .sort(desc("revenue"), asc("o_entry_d"), asc("ol_w_id"), asc("ol_d_id"), asc("ol_o_id"))
                .select("ol_o_id", "ol_w_id", "ol_d_id", "revenue", "o_entry_d");
    }

    /**
     * Q2, promotion revenue, the least communication: the summer's delivered lines and every item (its id and
     * whether its data starts with 'a') are repartitioned on the item id, joined, and summed partially there; the
     * two sums are gathered and finished on node 0.
     */
    static PlanNode q2() {
        PlanNode items = scan("item", TpccGenerator.ITEM, "i_id", "i_data")
                .project(column("i_id"), as(caseWhen(like(col("i_data"), "a%"), lit(1), lit(0)), "i_promo"))
                .repartition("i_id");
        AggregateCall[] sums = {
            sum(caseWhen(eq(col("i_promo"), lit(1)), col("ol_amount"), lit(0)), "promo"), sum(col("ol_amount"), "total")
        };
        return scan("order_line", TpccGenerator.ORDER_LINE, "ol_i_id", "ol_delivery_d", "ol_amount")
                .filter(and(ge(col("ol_delivery_d"), date("2013-06-01")), lt(col("ol_delivery_d"), date("2013-08-01"))))
                .select("ol_i_id", "ol_amount")
                .repartition("ol_i_id")
                .join(items, keys("ol_i_id"), keys("i_id"))
                .distributedAggregate(keys(), sums)
                .project(as(
                        div(mul(decimal("100.00"), col("promo")), add(decimal("1"), col("total"))), "promo_revenue"));
    }

    /**
     * Q3, pricing summary: the late-delivered lines are aggregated per line number where they lie, the partial
     * states of the 15 groups gathered and finished on node 0. One exchange.
     */
    static PlanNode q3() {
        AggregateCall[] aggregates = {
            sum(col("ol_quantity"), "sum_qty"), sum(col("ol_amount"), "sum_amount"), countStar("count_order")
        };
        List<String> groups = keys("ol_number");
        return scan("order_line", TpccGenerator.ORDER_LINE, "ol_number", "ol_delivery_d", "ol_quantity", "ol_amount")
                .filter(gt(col("ol_delivery_d"), date("2013-07-01")))
                .partialAggregate(groups, aggregates)
                .gather()
                .finalAggregate(groups, aggregates)
                .project(
                        column("ol_number"),
                        column("sum_qty"),
                        column("sum_amount"),
                        as(div(col("sum_qty"), col("count_order")), "avg_qty"),
                        as(div(col("sum_amount"), col("count_order")), "avg_amount"),
                        column("count_order"))
                .sort(desc("sum_qty"), asc("ol_number"));
    }
}
