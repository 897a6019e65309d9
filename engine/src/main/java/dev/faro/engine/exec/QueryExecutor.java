package dev.faro.engine.exec;

import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.operator.CollectOperator;
import dev.faro.engine.plan.PlanNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes a plan on one node with morsel-driven parallelism: compiles it into pipelines ({@link PlanCompiler}),
 * opens every exchange over the context's transport in plan order (collective across nodes) on a thread of its own
 * ({@link ExchangeOpener}), and meanwhile runs the pipelines ({@link PipelineScheduler}): in plan order, each once
 * those it reads from have completed and its exchanges are open, the breakers one after another, while every
 * exchange's producing pipeline streams alongside its consuming one. The first
 * failure of any thread wins: the other threads stop at their next step (or when the transport's waits fail), the
 * exchanges are closed once no thread uses them, and {@link #execute} throws. With several nodes, the nodes finally
 * agree on the outcome through the transport's peer exchange ({@link QueryOutcome}), so every node throws when any
 * node failed, with the first failure of any node.
 *
 * <p>Stateless; one call per query and node. Coordination code.
 */
public final class QueryExecutor {

    /** After a failure, how much longer than the stall timeout threads blocked in a transport get to end. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private QueryExecutor() {}

    /**
     * Runs {@code root} at the node described by {@code context} and returns this node's rows: everything on one
     * node; with a GATHER in the plan, node 0's rows (other nodes return none).
     *
     * @throws QueryExecutionException when any thread of this node failed, or (several nodes) any other node did
     * @throws IllegalArgumentException when the plan does not fit this node's catalog (before anything is opened;
     *     the other nodes of a distributed query then fail when their peer exchange times out)
     */
    public static QueryResult execute(PlanNode root, ExecutionContext context) {
        long start = System.nanoTime();
        QueryFailure failure = new QueryFailure();
        PlanCompiler compiler = new PlanCompiler(context);
        CollectOperator.Factory result = compiler.compileRoot(root);
        List<ShuffleExchange> exchanges = compiler.exchanges();
        PipelineScheduler scheduler = new PipelineScheduler(
                compiler.pipelines(), context.threads(), context.driverThreads(), failure, context.progress());
        ExchangeOpener opener = new ExchangeOpener(exchanges, failure, scheduler::exchangeOpened);
        boolean stopped = true;
        try {
            opener.start(context.queryId());
            scheduler.run();
        } catch (Throwable e) {
            failure.fail(e);
        } finally {
            try {
                stopped = scheduler.awaitStopped(context.stallTimeout().plus(STOP_GRACE));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.fail(e);
                stopped = false;
            }
            closeExchanges(opener.abandon(), stopped, failure);
        }
        Throwable first = failure.first();
        if (context.nodeCount() > 1
                && !(failure.failed() && context.transport().peers().endsPeersOnFailure())) {
            first = QueryOutcome.agree(context, failure); // a failed node under a coordinator fails at once
        }
        if (first != null) {
            if (first instanceof Error error) {
                throw error; // out of memory and the like: the worker's state is unknown, do not carry on
            }
            throw new QueryExecutionException(context.queryId(), context.nodeIndex(), first);
        }
        List<ExchangeStatistics> statistics = new ArrayList<>();
        for (ShuffleExchange exchange : exchanges) {
            statistics.add(exchange.statistics());
        }
        QueryStatistics queryStatistics =
                new QueryStatistics(System.nanoTime() - start, scheduler.statistics(), statistics);
        boolean returnsRows = !compiler.gathers() || context.nodeIndex() == 0;
        return new QueryResult(root.outputSchema(), returnsRows ? result.output() : List.of(), queryStatistics);
    }

    /**
     * Closes every opened exchange when no thread uses it any more, abandoning them when the query failed here; keeps
     * the first error.
     */
    private static void closeExchanges(List<ShuffleExchange> exchanges, boolean stopped, QueryFailure failure) {
        for (ShuffleExchange exchange : exchanges) {
            if (!stopped) {
                failure.fail(new IllegalStateException(
                        "threads of exchange " + exchange.shuffleName() + " did not stop; its transport left open"));
                continue;
            }
            try {
                if (failure.failed()) {
                    exchange.abandon(); // the peers' queries fail too: do not wait for their streams to end
                } else {
                    exchange.close();
                }
            } catch (Throwable e) {
                failure.fail(e);
            }
        }
    }
}
