package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.zerosided.switching.ForwardingProbe;
import dev.faro.zerosided.switching.SwitchConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cluster task {@value #TYPE}: this node's part of one {@link ZeroSidedPoint}, all three nodes in one round. Node 0
 * is the switch ({@link SwitchNode}; for {@link ZeroSidedPoint#FORWARDING} it measures the switch alone), node 1 the
 * producers' processing units, node 2 the consumers' ({@link UnitNode} zero-sided, {@link CpuDrivenNode} for the
 * baseline, whose drivers run on node 1). Set-up data (endpoints, queue pairs, keys) travels through the round's
 * all-gathers; the timed loops run between the workers alone. Replies the node's figures as JSON.
 *
 * <p>Coordination code.
 */
public final class ZeroSidedPointHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.zerosided-point";

    static final int SWITCH_NODE = 0;
    static final int PRODUCER_NODE = 1;
    static final int CONSUMER_NODE = 2;

    static final long PINNED_RETRY_TIMEOUT_NS = 1_000_000_000L;

    /** The nodes a point needs. */
    static final int NODES = 3;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        ZeroSidedPoint point = ZeroSidedPoint.fromJson(payload);
        ObjectNode reply = JsonNodeFactory.instance.objectNode();
        int node = context.nodeIndex();
        switch (point.mode()) {
            case ZeroSidedPoint.FORWARDING -> {
                if (node == SWITCH_NODE) {
                    ForwardingProbe.Result result = ForwardingProbe.measure(
                            switchConfig(point), point.itemBytes(), (long) (point.seconds() * 1e9));
                    reply.put("packetsPerSecond", result.packetsPerSecond());
                    reply.put("bytesPerSecond", result.payloadBytesPerSecond());
                }
            }
            case ZeroSidedPoint.ZERO_SIDED -> {
                if (node == SWITCH_NODE) {
                    SwitchNode.run(context, point, switchConfig(point), reply);
                } else {
                    UnitNode.run(context, point, switchConfig(point), reply);
                }
            }
            case ZeroSidedPoint.CPU_DRIVEN -> CpuDrivenNode.run(context, point, reply);
            default -> {
                if (!ZeroSidedExperiments.isExperiment(point.mode())) {
                    throw new IllegalArgumentException("unknown mode: " + point.mode());
                }
                if (node == SWITCH_NODE) {
                    reply.set(
                            "experiment",
                            ZeroSidedExperiments.run(point, point.runs()).toJson());
                }
            }
        }
        return TaskReply.of(reply);
    }

    /**
     * The switch of a point. Pinned, the network's threads share one CPU with whatever else the host runs; an ACK
     * then often comes later than the default 50 ms, and every timeout re-READs a whole batch, so a pinned point
     * waits up to a second (the upper end of RC NICs' ACK timeouts) before it reissues.
     */
    static SwitchConfig switchConfig(ZeroSidedPoint point) {
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(point.maxBatchBytes());
        return point.pin() ? config.withRetryTimeoutNs(PINNED_RETRY_TIMEOUT_NS) : config;
    }

    /** Encodes numbers for an all-gather. */
    static byte[] encode(long... values) {
        StringBuilder text = new StringBuilder();
        for (long value : values) {
            text.append(value).append(' ');
        }
        return text.toString().strip().getBytes(StandardCharsets.US_ASCII);
    }

    /** Decodes {@link #encode}'s bytes. */
    static long[] decode(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.US_ASCII).strip();
        return text.isEmpty()
                ? new long[0]
                : Arrays.stream(text.split(" ")).mapToLong(Long::parseLong).toArray();
    }
}
