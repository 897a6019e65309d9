package dev.faro.engine.exchange;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.expression.And;
import dev.faro.engine.expression.Arithmetic;
import dev.faro.engine.expression.Between;
import dev.faro.engine.expression.Case;
import dev.faro.engine.expression.Cast;
import dev.faro.engine.expression.ColumnReference;
import dev.faro.engine.expression.Comparison;
import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.ExtractYear;
import dev.faro.engine.expression.InList;
import dev.faro.engine.expression.IsNull;
import dev.faro.engine.expression.Like;
import dev.faro.engine.expression.Literal;
import dev.faro.engine.expression.Not;
import dev.faro.engine.expression.Or;
import dev.faro.engine.expression.Substring;
import dev.faro.engine.plan.Aggregate;
import dev.faro.engine.plan.Exchange;
import dev.faro.engine.plan.Filter;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.JoinType;
import dev.faro.engine.plan.Limit;
import dev.faro.engine.plan.NamedExpression;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Project;
import dev.faro.engine.plan.Sort;
import dev.faro.engine.plan.TableScan;
import dev.faro.engine.plan.TopN;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Table;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which columns of a plan node may be NULL, for the row format's nullable part ({@link RowCodec}): conservative (a
 * column is nullable unless the plan proves it is not). Scanned columns are nullable when the table holds a NULL in
 * them; a LEFT join's build columns, aggregates other than counts, CASE, division and NULL literals may be NULL;
 * other expressions are NULL only through their operands. Coordination code: once per exchange at compile time.
 */
public final class Nullability {

    private Nullability() {}

    /** Per output column of {@code node}: whether it may be NULL. */
    public static boolean[] of(PlanNode node, Catalog catalog) {
        Map<String, Boolean> columns = columns(node, catalog);
        Schema schema = node.outputSchema();
        boolean[] nullable = new boolean[schema.size()];
        for (int c = 0; c < nullable.length; c++) {
            nullable[c] = columns.getOrDefault(schema.column(c).name(), true);
        }
        return nullable;
    }

    private static Map<String, Boolean> columns(PlanNode node, Catalog catalog) {
        return switch (node) {
            case TableScan scan -> scanned(scan, catalog);
            case Filter filter -> columns(filter.child(), catalog);
            case Limit limit -> columns(limit.child(), catalog);
            case Sort sort -> columns(sort.child(), catalog);
            case TopN topN -> columns(topN.child(), catalog);
            case Exchange exchange -> columns(exchange.child(), catalog);
            case Project project -> {
                Map<String, Boolean> input = columns(project.child(), catalog);
                Map<String, Boolean> output = new HashMap<>();
                for (NamedExpression projection : project.projections()) {
                    output.put(projection.name(), nullable(projection.expression(), input));
                }
                yield output;
            }
            case HashJoin join -> {
                Map<String, Boolean> output = new HashMap<>(columns(join.probe(), catalog));
                Map<String, Boolean> build = columns(join.build(), catalog);
                for (Map.Entry<String, Boolean> column : build.entrySet()) {
                    output.putIfAbsent(column.getKey(), join.type() == JoinType.LEFT || column.getValue());
                }
                yield output;
            }
            case Aggregate aggregate -> {
                Map<String, Boolean> input = columns(aggregate.child(), catalog);
                Map<String, Boolean> output = new HashMap<>();
                for (String key : aggregate.groupKeys()) {
                    output.put(key, input.getOrDefault(key, true));
                }
                yield output; // aggregate and state columns: absent, so nullable
            }
        };
    }

    private static Map<String, Boolean> scanned(TableScan scan, Catalog catalog) {
        Map<String, Boolean> output = new HashMap<>();
        if (!catalog.contains(scan.table())) {
            return output;
        }
        Table table = catalog.get(scan.table());
        boolean[] nulls = catalog.mayHaveNulls(scan.table());
        for (int c = 0; c < nulls.length; c++) {
            output.put(table.schema().column(c).name(), nulls[c]);
        }
        return output;
    }

    private static boolean nullable(Expression expression, Map<String, Boolean> input) {
        return switch (expression) {
            case ColumnReference column -> input.getOrDefault(column.name(), true);
            case Literal literal -> literal.value() == null;
            case Arithmetic arithmetic ->
                arithmetic.operator() == Arithmetic.Operator.DIVIDE
                        || nullable(arithmetic.left(), input)
                        || nullable(arithmetic.right(), input);
            case Comparison comparison -> nullable(comparison.left(), input) || nullable(comparison.right(), input);
            case And and -> any(and.terms(), input);
            case Or or -> any(or.terms(), input);
            case Not not -> nullable(not.operand(), input);
            case IsNull ignored -> false;
            case InList in -> nullable(in.value(), input) || any(in.list(), input);
            case Between between ->
                nullable(between.value(), input) || nullable(between.low(), input) || nullable(between.high(), input);
            case Like like -> nullable(like.value(), input);
            case Case ignored -> true;
            case ExtractYear year -> nullable(year.date(), input);
            case Substring substring -> nullable(substring.value(), input);
            case Cast cast -> nullable(cast.operand(), input);
        };
    }

    private static boolean any(List<Expression> expressions, Map<String, Boolean> input) {
        for (Expression expression : expressions) {
            if (nullable(expression, input)) {
                return true;
            }
        }
        return false;
    }
}
