package dev.faro.cluster.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.engine.exchange.ShuffleExchange;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.DesignTransport;
import java.util.List;

/**
 * Test task {@code stall}, on two nodes: one engine exchange (id 3, a repartition) opened like a query's, with the
 * cluster's stall timeout and the worker's progress signal. Node 0 ends its own stream and waits for node 1's.
 * With {@code payload.busyMillis} 0, node 1 sends nothing and never ends its stream until cancelled: nothing moves
 * anywhere, and node 0 fails with the exchange's stall error. Otherwise node 1 is busy for that long (advancing its
 * progress signal, as the engine's drivers do per batch), then ends its stream: node 0 must wait for it, not fail.
 * Node 0 drives its exchange source as a driver does (waiting on {@code isBlocked} where a driver would yield).
 */
public final class StallHandler implements TaskHandler {

    private static final Schema SCHEMA = Schema.of(new Column("k", DataType.BIGINT));

    @Override
    public String type() {
        return "stall";
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        long busyMillis = payload.path("busyMillis").asLong();
        DesignTransport transport = new DesignTransport(
                context.fabric(),
                context.exchange(),
                EndpointDesign.MEMQ_SR,
                threads -> EndpointConfig.defaults(EndpointDesign.MEMQ_SR, threads)
                        .withStallTimeout(context.exchangeStallTimeout())
                        .withProgress(context.progress()));
        ExecutionContext execution = ExecutionContext.distributed(
                        Catalog.of(List.of()), 1, transport, "stall-" + context.taskId())
                .withProgress(context.progress(), context.exchangeStallTimeout());
        ShuffleExchange exchange = new ShuffleExchange(
                3, ExchangeKind.REPARTITION, SCHEMA, new boolean[] {false}, List.of("k"), execution);
        exchange.open();
        try {
            if (context.nodeIndex() == 1) {
                if (busyMillis == 0) {
                    WaitForCancel.await(context);
                }
                long until = System.nanoTime() + busyMillis * 1_000_000L;
                while (System.nanoTime() - until < 0) {
                    context.progress().advance();
                    Thread.sleep(50);
                }
            }
            exchange.sinkFactory().complete(1);
            Operator source = exchange.sourceFactory().create(0);
            while (!source.isFinished()) {
                // as a driver does: wait while the source is blocked (a driver yields), then take its output; the
                // stall error, named, comes from getOutput when nothing moves
                source.isBlocked().toCompletableFuture().join();
                if (source.isBlocked() == Operator.NOT_BLOCKED) {
                    source.getOutput();
                }
            }
            return TaskReply.of(Json.object().put("node", context.nodeIndex()));
        } finally {
            try {
                exchange.close();
            } catch (RuntimeException e) {
                // closing a stalled exchange fails too (its peer never confirms the end): the stall is the error
            }
        }
    }
}
