package dev.faro.bench.hyper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.worker.TaskHandler;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.HyperTransport;
import dev.faro.hyper.Multiplexer;
import dev.faro.hyper.NetworkSchedule;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Cluster task {@value #TYPE}: V4's all-to-all shuffle on this worker's own {@link Multiplexer} (one per task, over the
 * worker's fabric, closed at the end), so that each node's network thread runs in its own process: {@code
 * bench hyper --experiments v4-netns} runs it on workers in network namespaces. One warm-up exchange, then the timed
 * one: every node opens it, a gather lets all start together, this node's sender sends {@code messages} full messages
 * to the others ({@link ShuffleRound#send}) while a receiver thread takes and releases until its end of stream. The
 * reply carries the start and end ({@link System#nanoTime()}, comparable between processes on one host), what was
 * sent to and received from each node and how many messages arrived twice, which the coordinator checks. Coordination
 * code around the measured loops.
 */
public final class HyperShuffleHandler implements TaskHandler {

    /** The task type. */
    public static final String TYPE = "bench.hyper.shuffle";

    @Override
    public String type() {
        return TYPE;
    }

    /** The task's payload (same for every node). */
    static ObjectNode payload(
            String name, int messages, int warmUpMessages, HyperConfig config, NetworkSchedule schedule) {
        return JsonNodeFactory.instance
                .objectNode()
                .put("name", name)
                .put("messages", messages)
                .put("warmUpMessages", warmUpMessages)
                .put("messageBytes", config.messageBytes())
                .put("receivesPerPeer", config.receivesPerPeer())
                .put("postedPerPeer", config.postedPerPeer())
                .put("schedule", schedule.name());
    }

    @Override
    public TaskReply handle(WorkerContext context, JsonNode payload) throws Exception {
        int self = context.nodeIndex();
        int nodes = context.nodes();
        String name = payload.get("name").asText();
        int messages = payload.get("messages").asInt();
        HyperConfig config = HyperConfig.defaults()
                .withMessageBytes(payload.get("messageBytes").asInt())
                .withReceivesPerPeer(payload.get("receivesPerPeer").asInt())
                .withPostedPerPeer(payload.get("postedPerPeer").asInt())
                .withSchedule(NetworkSchedule.valueOf(payload.get("schedule").asText()));
        try (Multiplexer multiplexer = new Multiplexer(context.fabric(), self, nodes, config)) {
            HyperTransport transport = new HyperTransport(
                    multiplexer, context.exchange(), context.exchangeStallTimeout(), context.progress());
            // a stalled exchange's failure says where the messages went (the multiplexer's per-peer state)
            exchange(
                    context,
                    transport,
                    name + "-warm-up",
                    payload.get("warmUpMessages").asInt());
            long phasesBefore = multiplexer.phases();
            ObjectNode reply = exchange(context, transport, name, messages);
            return TaskReply.of(reply.put("phases", multiplexer.phases() - phasesBefore));
        }
    }

    /** One all-to-all exchange of {@code messages} per node; what it measured and counted. */
    private static ObjectNode exchange(WorkerContext context, HyperTransport transport, String name, int messages)
            throws InterruptedException, ExecutionException {
        int self = context.nodeIndex();
        int nodes = context.nodes();
        long[] sentTo = new long[nodes];
        long[] receivedFrom = new long[nodes];
        long[] duplicates = new long[1];
        long[] receivedBytes = new long[1];
        ExchangeChannel channel = transport.open(name, TransmissionGroups.repartition(nodes), 1);
        boolean ended = false;
        try {
            CompletableFuture<Long> end = CompletableFuture.supplyAsync(
                    () -> receive(channel.receiver(0), nodes, messages, receivedFrom, duplicates, receivedBytes),
                    runnable -> Thread.ofPlatform()
                            .name("hyper-receiver-" + self)
                            .daemon()
                            .start(runnable));
            context.exchange().allGather(name + ".start", new byte[0]);
            long startNs = System.nanoTime();
            long payloadBytes = ShuffleRound.send(channel.sender(0), self, nodes, messages, sentTo);
            long endNs;
            try {
                endNs = end.get(10, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure; // the exchange's own failure, with the multiplexer's state
                }
                throw e;
            } catch (TimeoutException e) {
                throw new IllegalStateException("node " + self + ": no end of stream within 10 minutes", e);
            }
            context.exchange().allGather(name + ".done", new byte[0]);
            ArrayNode sent = JsonNodeFactory.instance.arrayNode();
            ArrayNode received = JsonNodeFactory.instance.arrayNode();
            for (int node = 0; node < nodes; node++) {
                sent.add(sentTo[node]);
                received.add(receivedFrom[node]);
            }
            ObjectNode reply = JsonNodeFactory.instance
                    .objectNode()
                    .put("startNs", startNs)
                    .put("endNs", endNs)
                    .put("payloadBytes", payloadBytes)
                    .put("receivedBytes", receivedBytes[0])
                    .put("duplicates", duplicates[0]);
            reply.set("sentTo", sent);
            reply.set("receivedFrom", received);
            ended = true;
            return reply;
        } finally {
            if (ended) {
                channel.close();
            } else {
                channel.abandon(); // the receiver may still wait in take(): give up without the close's waits
            }
        }
    }

    /**
     * Takes until the end of stream, counting per sender (offset 8) and marking each message's number (offset 0) so
     * that a second copy counts as a duplicate; returns when the end came.
     */
    private static long receive(
            ExchangeReceiver receiver,
            int nodes,
            int messages,
            long[] receivedFrom,
            long[] duplicates,
            long[] receivedBytes) {
        BitSet[] seen = new BitSet[nodes];
        for (int node = 0; node < nodes; node++) {
            seen[node] = new BitSet(messages);
        }
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            int from = (int) buffer.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
            int number = (int) buffer.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
            if (from < 0 || from >= nodes || number < 0 || number >= messages) {
                throw new IllegalStateException("a message that no node sent: from=" + from + " number=" + number);
            }
            if (seen[from].get(number)) {
                duplicates[0]++;
            }
            seen[from].set(number);
            receivedFrom[from]++;
            receivedBytes[0] += buffer.payloadLength();
            receiver.release(buffer);
        }
        return System.nanoTime();
    }
}
