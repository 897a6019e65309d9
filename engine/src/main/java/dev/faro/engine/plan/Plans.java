package dev.faro.engine.plan;

import dev.faro.engine.expression.ColumnReference;
import dev.faro.engine.expression.Expression;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Table;
import java.util.ArrayList;
import java.util.List;

/**
 * Static factories for hand-written plans; {@code import static dev.faro.engine.plan.Plans.*} next to
 * {@code dev.faro.engine.expression.Expressions.*}. Example:
 * <pre>{@code
 * scan("orders", ordersSchema, "o_orderkey", "o_orderdate")
 *     .filter(lt(col("o_orderdate"), date("1995-03-15")))
 *     .join(JoinType.SEMI, lineitems, "o_orderkey", "l_orderkey")
 *     .aggregate(keys("o_orderdate"), countStar("order_count"))
 *     .sort(asc("o_orderdate"));
 * }</pre>
 */
public final class Plans {

    private Plans() {}

    /** Scans {@code columns} of table {@code table} whose full schema is {@code tableSchema}. */
    public static TableScan scan(String table, Schema tableSchema, String... columns) {
        List<Column> selected = new ArrayList<>();
        for (String column : columns) {
            selected.add(tableSchema.column(column));
        }
        return new TableScan(table, selected);
    }

    /** Scans {@code columns} of {@code table} (its name and schema). */
    public static TableScan scan(Table table, String... columns) {
        return scan(table.name(), table.schema(), columns);
    }

    /** {@code expression AS name}. */
    public static NamedExpression as(Expression expression, String name) {
        return new NamedExpression(name, expression);
    }

    /** A column passed through under its own name. */
    public static NamedExpression column(String name) {
        return new NamedExpression(name, new ColumnReference(name));
    }

    public static List<String> keys(String... columns) {
        return List.of(columns);
    }

    /** Ascending, NULLs last. */
    public static SortKey asc(String column) {
        return new SortKey(column, true, false);
    }

    /** Descending, NULLs last (as {@link #asc}). */
    public static SortKey desc(String column) {
        return new SortKey(column, false, false);
    }

    public static AggregateCall sum(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.SUM, argument, name);
    }

    public static AggregateCall count(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.COUNT, argument, name);
    }

    public static AggregateCall countStar(String name) {
        return new AggregateCall(AggregateFunction.COUNT_STAR, null, name);
    }

    public static AggregateCall countDistinct(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.COUNT_DISTINCT, argument, name);
    }

    public static AggregateCall avg(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.AVG, argument, name);
    }

    public static AggregateCall min(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.MIN, argument, name);
    }

    public static AggregateCall max(Expression argument, String name) {
        return new AggregateCall(AggregateFunction.MAX, argument, name);
    }
}
