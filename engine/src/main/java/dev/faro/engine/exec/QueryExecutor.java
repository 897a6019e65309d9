package dev.faro.engine.exec;

import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.operator.CollectOperator;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.engine.plan.PlanNode;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes a plan on one node with morsel-driven parallelism: compiles it into pipelines ({@link PlanCompiler}),
 * opens every exchange's endpoints in plan order (collective across nodes), then runs the pipelines one after the
 * other, each on its own platform threads (one driver per thread, pulling morsels from a shared dispenser). A
 * pipeline feeding an exchange starts that exchange's receiver threads first, so the consuming side drains while
 * the producing side sends. The first failure of any thread wins: the other threads stop at their next batch, the
 * endpoints are closed once the receiver threads ended, and {@link #execute} throws. With several nodes, the nodes
 * finally agree on the outcome through the peer exchange, so every node throws when any node failed.
 *
 * <p>Stateless; one call per query and node. Coordination code.
 */
public final class QueryExecutor {

    /** After a failure, how much longer than the stall timeout receiver threads get to end. */
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
        PlanCompiler compiler = new PlanCompiler(context, failure);
        CollectOperator.Factory result = compiler.compileRoot(root);
        List<ShuffleExchange> exchanges = compiler.exchanges();
        List<PipelineStatistics> pipelineStatistics = new ArrayList<>();
        List<ShuffleExchange> opened = new ArrayList<>();
        ProgressSignal progress =
                context.nodeCount() > 1 ? context.endpointConfig().progress() : ProgressSignal.NONE;
        try {
            for (ShuffleExchange exchange : exchanges) {
                exchange.open();
                opened.add(exchange);
            }
            for (Pipeline pipeline : compiler.pipelines()) {
                failure.check();
                long pipelineStart = System.nanoTime();
                if (pipeline.sendsTo() != null) {
                    pipeline.sendsTo().startReceiving();
                }
                runDrivers(pipeline, failure, progress);
                failure.check();
                pipeline.sink().complete(context.threads());
                long nanos = System.nanoTime() - pipelineStart;
                pipelineStatistics.add(
                        new PipelineStatistics(pipeline.id(), pipeline.description(), pipeline.threads(), nanos));
                if (pipeline.sendsTo() != null) {
                    pipeline.sendsTo().recordSendNanos(nanos);
                }
            }
        } catch (Throwable e) {
            failure.fail(e);
        } finally {
            closeExchanges(opened, failure);
        }
        if (context.nodeCount() > 1
                && !(failure.failed() && context.peerExchange().endsPeersOnFailure())) {
            agreeOnOutcome(context, failure); // a failed node under a coordinator fails at once (see the method)
        }
        if (failure.failed()) {
            Throwable first = failure.first();
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
                new QueryStatistics(System.nanoTime() - start, pipelineStatistics, statistics);
        boolean returnsRows = !compiler.gathers() || context.nodeIndex() == 0;
        return new QueryResult(root.outputSchema(), returnsRows ? result.output() : List.of(), queryStatistics);
    }

    private static void runDrivers(Pipeline pipeline, QueryFailure failure, ProgressSignal progress)
            throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < pipeline.threads(); t++) {
            int thread = t;
            threads.add(Thread.ofPlatform()
                    .daemon()
                    .name("pipeline-" + pipeline.id() + "-" + t)
                    .start(() -> {
                        try {
                            List<Operator> operators = new ArrayList<>();
                            for (OperatorFactory factory : pipeline.operators()) {
                                operators.add(factory.create(thread));
                            }
                            operators.add(pipeline.sink().create(thread));
                            new Driver(operators, failure, progress).run();
                        } catch (Throwable e) {
                            failure.fail(e);
                        }
                    }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /**
     * Every node learns whether any node failed (an all-gather of one byte), so a node whose own part went well
     * still throws when another failed, instead of returning a partial result.
     */
    private static void agreeOnOutcome(ExecutionContext context, QueryFailure failure) {
        try {
            byte[][] outcomes = context.peerExchange()
                    .allGather(context.queryId() + "/outcome", new byte[] {(byte) (failure.failed() ? 1 : 0)});
            for (int node = 0; node < outcomes.length; node++) {
                if (outcomes[node].length > 0 && outcomes[node][0] != 0 && !failure.failed()) {
                    failure.fail(new IllegalStateException("the query failed at node " + node));
                }
            }
        } catch (RuntimeException e) {
            failure.fail(e);
        }
    }

    /** Closes every opened exchange once its receivers ended (bounded by the stall timeout); keeps the first error. */
    private static void closeExchanges(List<ShuffleExchange> exchanges, QueryFailure failure) {
        for (ShuffleExchange exchange : exchanges) {
            try {
                if (exchange.awaitReceivers(exchange.stallTimeout().plus(STOP_GRACE))) {
                    exchange.close();
                } else {
                    failure.fail(new IllegalStateException(
                            "receiver threads of " + exchange.shuffleName() + " did not stop; endpoints left open"));
                }
            } catch (Throwable e) {
                failure.fail(e);
            }
        }
    }
}
