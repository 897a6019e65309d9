package dev.faro.engine.exchange;

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
import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.AggregationPhase;
import dev.faro.engine.plan.Exchange;
import dev.faro.engine.plan.Filter;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.Limit;
import dev.faro.engine.plan.NamedExpression;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Project;
import dev.faro.engine.plan.Sort;
import dev.faro.engine.plan.SortKey;
import dev.faro.engine.plan.TableScan;
import dev.faro.engine.plan.TopN;
import dev.faro.engine.vector.Schema;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which output columns of each exchange of a plan the operators above it read, so that the others are pruned before
 * the exchange (VLDB16 §3.2.1): they do not travel, and the receiving side fills them with NULLs. Conservative: every
 * column an operator evaluates counts (all projections of a project, a FINAL aggregation's whole input), so a pruned
 * column is never read. The same analysis tells filters and join probes which of their output columns nothing above
 * reads ({@link #unread}: late materialisation). Coordination code: once per query at compile time.
 */
public final class RequiredColumns {

    private final Map<Exchange, Set<String>> byExchange = new IdentityHashMap<>();
    private final Map<PlanNode, Set<String>> byNode = new IdentityHashMap<>();

    private RequiredColumns() {}

    /** The analysis of {@code root}, whose every output column is required. */
    public static RequiredColumns of(PlanNode root) {
        RequiredColumns analysis = new RequiredColumns();
        analysis.walk(root, new HashSet<>(root.outputSchema().names()));
        return analysis;
    }

    /** Per output column of {@code exchange}: whether it is pruned (read by nothing above the exchange). */
    public boolean[] pruned(Exchange exchange) {
        Set<String> required = byExchange.getOrDefault(exchange, Set.of());
        Schema schema = exchange.outputSchema();
        boolean[] pruned = new boolean[schema.size()];
        for (int c = 0; c < pruned.length; c++) {
            String name = schema.column(c).name();
            pruned[c] = !required.contains(name) && !exchange.keys().contains(name);
        }
        return pruned;
    }

    /**
     * Per output column of {@code node}: whether nothing above it reads the column, so an operator may leave its
     * values unspecified (the same conservative rule as for exchanges). A node that is not (this very instance) part of
     * the analysed plan has every column read: nothing is known about what sits above it.
     */
    public boolean[] unread(PlanNode node) {
        Set<String> required = byNode.get(node);
        Schema schema = node.outputSchema();
        boolean[] unread = new boolean[schema.size()];
        if (required == null) {
            return unread;
        }
        for (int c = 0; c < unread.length; c++) {
            unread[c] = !required.contains(schema.column(c).name());
        }
        return unread;
    }

    private void walk(PlanNode node, Set<String> required) {
        byNode.computeIfAbsent(node, n -> new HashSet<>()).addAll(required);
        switch (node) {
            case TableScan ignored -> {}
            case Filter filter -> {
                Set<String> child = new HashSet<>(required);
                references(filter.predicate(), child);
                walk(filter.child(), child);
            }
            case Project project -> {
                Set<String> child = new HashSet<>();
                for (NamedExpression projection : project.projections()) {
                    references(projection.expression(), child);
                }
                walk(project.child(), child);
            }
            case Limit limit -> walk(limit.child(), required);
            case Sort sort -> walk(sort.child(), withKeys(required, sort.keys()));
            case TopN topN -> walk(topN.child(), withKeys(required, topN.keys()));
            case HashJoin join -> {
                Set<String> probe = new HashSet<>(required);
                probe.addAll(join.probeKeys());
                Set<String> build = new HashSet<>(required);
                build.addAll(join.buildKeys());
                if (join.residual() != null) {
                    references(join.residual(), probe);
                    references(join.residual(), build);
                }
                walk(join.probe(), probe);
                walk(join.build(), build);
            }
            case Aggregate aggregate -> {
                Set<String> child = new HashSet<>(aggregate.groupKeys());
                if (aggregate.phase() == AggregationPhase.FINAL) {
                    child.addAll(aggregate.child().outputSchema().names());
                } else {
                    for (AggregateCall call : aggregate.aggregates()) {
                        if (call.argument() != null) {
                            references(call.argument(), child);
                        }
                    }
                }
                walk(aggregate.child(), child);
            }
            case Exchange exchange -> {
                byExchange.computeIfAbsent(exchange, e -> new HashSet<>()).addAll(required);
                Set<String> child = new HashSet<>(required);
                child.addAll(exchange.keys());
                walk(exchange.child(), child);
            }
        }
    }

    private static Set<String> withKeys(Set<String> required, List<SortKey> keys) {
        Set<String> child = new HashSet<>(required);
        for (SortKey key : keys) {
            child.add(key.column());
        }
        return child;
    }

    private static void references(Expression expression, Set<String> out) {
        switch (expression) {
            case ColumnReference column -> out.add(column.name());
            case Literal ignored -> {}
            case Arithmetic arithmetic -> {
                references(arithmetic.left(), out);
                references(arithmetic.right(), out);
            }
            case Comparison comparison -> {
                references(comparison.left(), out);
                references(comparison.right(), out);
            }
            case And and -> and.terms().forEach(term -> references(term, out));
            case Or or -> or.terms().forEach(term -> references(term, out));
            case Not not -> references(not.operand(), out);
            case IsNull isNull -> references(isNull.operand(), out);
            case InList in -> {
                references(in.value(), out);
                in.list().forEach(item -> references(item, out));
            }
            case Between between -> {
                references(between.value(), out);
                references(between.low(), out);
                references(between.high(), out);
            }
            case Like like -> references(like.value(), out);
            case Case caseWhen -> {
                for (Case.When when : caseWhen.whens()) {
                    references(when.condition(), out);
                    references(when.value(), out);
                }
                if (caseWhen.otherwise() != null) {
                    references(caseWhen.otherwise(), out);
                }
            }
            case ExtractYear year -> references(year.date(), out);
            case Substring substring -> references(substring.value(), out);
            case Cast cast -> references(cast.operand(), out);
        }
    }
}
