package dev.faro.engine.exec;

import dev.faro.engine.exchange.Nullability;
import dev.faro.engine.exchange.RequiredColumns;
import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.operator.CollectOperator;
import dev.faro.engine.operator.FilterOperator;
import dev.faro.engine.operator.HashAggregationOperator;
import dev.faro.engine.operator.HashJoinProbeOperator;
import dev.faro.engine.operator.JoinBuildOperator;
import dev.faro.engine.operator.LimitOperator;
import dev.faro.engine.operator.Morsels;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.engine.operator.ProjectOperator;
import dev.faro.engine.operator.ScanOperator;
import dev.faro.engine.operator.SinkFactory;
import dev.faro.engine.operator.SortOperator;
import dev.faro.engine.plan.Aggregate;
import dev.faro.engine.plan.Exchange;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.plan.Filter;
import dev.faro.engine.plan.HashJoin;
import dev.faro.engine.plan.Limit;
import dev.faro.engine.plan.NamedExpression;
import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.plan.Project;
import dev.faro.engine.plan.Sort;
import dev.faro.engine.plan.TableScan;
import dev.faro.engine.plan.TopN;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Splits a plan into pipelines at the breakers (join build, aggregation, sort/top-N, exchange, result), in an order
 * where every pipeline comes after those it reads from; exchanges are numbered in the same deterministic order on
 * every node. Each pipeline names the pipelines whose product it needs complete before it starts (a materialized
 * source, a join's build); an exchange's consuming pipeline does not wait for the producing one (they stream). A
 * pipeline after a sort or top-N runs on one thread, to keep the order. On one node an exchange is no breaker: rows pass
 * through it within the pipeline. Coordination code.
 */
final class PlanCompiler {

    private final ExecutionContext context;
    private final List<Pipeline> pipelines = new ArrayList<>();
    private final List<ShuffleExchange> exchanges = new ArrayList<>();
    private boolean gathers;
    private RequiredColumns required;

    PlanCompiler(ExecutionContext context) {
        this.context = context;
    }

    /**
     * An open chain of operators, not yet closed by a sink; {@code after} are the pipelines that must complete before
     * it runs.
     */
    private record Chain(List<OperatorFactory> operators, boolean ordered, String description, Set<Integer> after) {
        Chain then(OperatorFactory factory, String step) {
            List<OperatorFactory> next = new ArrayList<>(operators);
            next.add(factory);
            return new Chain(next, ordered, description + " > " + step, after);
        }

        Chain after(int pipeline) {
            Set<Integer> more = new TreeSet<>(after);
            more.add(pipeline);
            return new Chain(operators, ordered, description, more);
        }
    }

    /** Compiles {@code root}; returns the sink collecting the query's result. */
    CollectOperator.Factory compileRoot(PlanNode root) {
        CollectOperator.Factory result = new CollectOperator.Factory();
        required = RequiredColumns.of(root);
        close(compile(root), result, null, "result");
        return result;
    }

    List<Pipeline> pipelines() {
        return List.copyOf(pipelines);
    }

    List<ShuffleExchange> exchanges() {
        return List.copyOf(exchanges);
    }

    /** Whether the plan gathers to node 0 (then only node 0 returns rows). */
    boolean gathers() {
        return gathers;
    }

    /** Closes {@code chain} with {@code sink} into a pipeline; returns its id. */
    private int close(Chain chain, SinkFactory sink, ShuffleExchange sendsTo, String what) {
        int threads = chain.ordered() ? 1 : context.threads();
        int id = pipelines.size();
        pipelines.add(new Pipeline(
                id, chain.description() + " > " + what, chain.operators(), sink, threads, chain.after(), sendsTo));
        return id;
    }

    /** A chain reading {@code batches}, the product of pipeline {@code producer} (-1: a table, always there). */
    private static Chain source(
            Supplier<List<Batch>> batches, int[] columns, boolean ordered, String what, int producer) {
        Chain chain =
                new Chain(List.of(new ScanOperator.Factory(new Morsels(batches), columns)), ordered, what, Set.of());
        return producer < 0 ? chain : chain.after(producer);
    }

    /**
     * The filter directly below a join's probe side (on one node also through exchanges, which are the identity
     * there), which the probe then evaluates itself: it probes only the rows the filter keeps and gathers only the
     * matched ones (see {@link HashJoinProbeOperator.Factory}); null when there is none.
     */
    private Filter fusableFilter(PlanNode probe) {
        PlanNode node = probe;
        while (context.nodeCount() == 1
                && node instanceof Exchange exchange
                && exchange.kind() != ExchangeKind.GATHER) {
            node = exchange.child();
        }
        if (node instanceof Filter filter && filter.outputSchema().equals(probe.outputSchema())) {
            return filter;
        }
        return null;
    }

    private Chain compile(PlanNode node) {
        return switch (node) {
            case TableScan scan -> {
                Table table = context.catalog().get(scan.table());
                int[] columns = new int[scan.columns().size()];
                for (int i = 0; i < columns.length; i++) {
                    Column column = scan.columns().get(i);
                    columns[i] = table.schema().indexOf(column.name());
                    if (!table.schema().type(columns[i]).equals(column.type())) {
                        throw new IllegalArgumentException("scan type differs from the table: table=" + scan.table()
                                + " column=" + column.name() + " plan=" + column.type() + " table="
                                + table.schema().type(columns[i]));
                    }
                }
                yield source(table::batches, columns, false, "scan " + scan.table(), -1);
            }
            case Filter filter ->
                compile(filter.child())
                        .then(
                                new FilterOperator.Factory(
                                        filter.predicate(), filter.child().outputSchema(), required.unread(filter)),
                                "filter");
            case Project project ->
                compile(project.child())
                        .then(
                                new ProjectOperator.Factory(
                                        project.projections().stream()
                                                .map(NamedExpression::expression)
                                                .toList(),
                                        project.child().outputSchema()),
                                "project");
            case Limit limit -> compile(limit.child()).then(new LimitOperator.Factory(limit.count()), "limit");
            case HashJoin join -> {
                JoinBuildOperator.Factory build =
                        new JoinBuildOperator.Factory(join.build().outputSchema(), join.buildKeys());
                int built = close(compile(join.build()), build, null, "join build");
                Filter fused = fusableFilter(join.probe());
                String probe = join.type().name().toLowerCase() + " join probe";
                yield (fused == null ? compile(join.probe()) : compile(fused.child()))
                        .after(built)
                        .then(
                                new HashJoinProbeOperator.Factory(
                                        join,
                                        join.probe().outputSchema(),
                                        build,
                                        required.unread(join),
                                        fused == null ? null : fused.predicate()),
                                fused == null ? probe : "filter > " + probe);
            }
            case Aggregate aggregate -> {
                HashAggregationOperator.Factory sink = new HashAggregationOperator.Factory(
                        aggregate.phase(),
                        aggregate.child().outputSchema(),
                        aggregate.groupKeys(),
                        aggregate.aggregates());
                Chain chain = compile(aggregate.child());
                int aggregated =
                        close(chain, sink, null, aggregate.phase().name().toLowerCase() + " aggregation");
                yield source(sink::output, null, chain.ordered(), "aggregated", aggregated);
            }
            case Sort sort -> {
                SortOperator.Factory sink =
                        new SortOperator.Factory(sort.child().outputSchema(), sort.keys(), -1);
                int sorted = close(compile(sort.child()), sink, null, "sort");
                yield source(sink::output, null, true, "sorted", sorted);
            }
            case TopN topN -> {
                SortOperator.Factory sink =
                        new SortOperator.Factory(topN.child().outputSchema(), topN.keys(), topN.count());
                int top = close(compile(topN.child()), sink, null, "top-N");
                yield source(sink::output, null, true, "top-N", top);
            }
            case Exchange exchange -> {
                Chain chain = compile(exchange.child());
                if (exchange.kind() == ExchangeKind.GATHER) {
                    gathers = true;
                }
                if (context.nodeCount() == 1) {
                    // every kind of exchange is the identity on one node: the chain goes on through it, rather than
                    // ending in a collecting pipeline (a breaker, its threads and a re-scan per exchange)
                    yield chain;
                }
                ShuffleExchange shuffle = new ShuffleExchange(
                        exchanges.size(),
                        exchange.kind(),
                        exchange.child().outputSchema(),
                        Nullability.of(exchange.child(), context.catalog()),
                        required.pruned(exchange),
                        exchange.keys(),
                        context);
                exchanges.add(shuffle);
                close(
                        chain,
                        shuffle.sinkFactory(),
                        shuffle,
                        exchange.kind().name().toLowerCase());
                yield new Chain(List.of(shuffle.sourceFactory()), false, "received", Set.of());
            }
        };
    }
}
