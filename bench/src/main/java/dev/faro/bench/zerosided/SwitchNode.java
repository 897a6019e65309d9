package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.zerosided.AgentRunner;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchEndpoint;
import dev.faro.zerosided.switching.SwitchStatistics;
import dev.faro.zerosided.switching.ZeroSidedSwitch;
import java.util.List;

/**
 * Node 0 of a zero-sided point: the switch process. Takes the producers' and consumers' buffer descriptions from the
 * all-gather, installs them and one 1:1 flow per pair, answers with its port and queue pair numbers, and runs its
 * packet loop on one thread until the units are done. Replies its counters.
 *
 * <p>Coordination code around the switch's loop.
 */
final class SwitchNode {

    private SwitchNode() {}

    static void run(WorkerContext context, ZeroSidedPoint point, SwitchConfig config, ObjectNode reply)
            throws Exception {
        byte[][] endpoints = context.exchange().allGather("endpoints", new byte[0]);
        try (PacketLink link = LinkKind.of(point.link()).open();
                ZeroSidedSwitch zeroSidedSwitch = new ZeroSidedSwitch(link, config)) {
            long[] producers = ZeroSidedPointHandler.decode(endpoints[ZeroSidedPointHandler.PRODUCER_NODE]);
            long[] consumers = ZeroSidedPointHandler.decode(endpoints[ZeroSidedPointHandler.CONSUMER_NODE]);
            long[] producerQps = install(zeroSidedSwitch, producers, true);
            long[] consumerQps = install(zeroSidedSwitch, consumers, false);
            for (int flow = 0; flow < point.flows(); flow++) {
                zeroSidedSwitch.control().installOneToOne((int) producerQps[flow], (int) consumerQps[flow]);
            }
            long[] answer = new long[1 + 2 * point.flows()];
            answer[0] = zeroSidedSwitch.port();
            System.arraycopy(producerQps, 0, answer, 1, point.flows());
            System.arraycopy(consumerQps, 0, answer, 1 + point.flows(), point.flows());
            context.exchange().allGather("switch", ZeroSidedPointHandler.encode(answer));
            AgentRunner runner =
                    new AgentRunner("zerosided-switch", List.of(zeroSidedSwitch::doWork), zeroSidedSwitch::awaitWork);
            try {
                reply.put("networkThreadsPinned", CorePlacement.of(point.pin()).pinNetworkThreads(1));
                context.exchange().allGather("done", new byte[0]);
            } finally {
                runner.close();
            }
            if (runner.failure() != null) {
                throw new IllegalStateException("the switch failed: " + runner.failure(), runner.failure());
            }
            SwitchStatistics statistics = zeroSidedSwitch.statistics();
            if (statistics.failure() != null) {
                throw new IllegalStateException(statistics.failure());
            }
            reply.put("transfers", statistics.transfers());
            reply.put("packetsForwarded", statistics.packetsForwarded());
            reply.put("retries", statistics.retries());
            reply.put("polls", statistics.polls());
            reply.put("payloadHighWaterBytes", statistics.payloadHighWaterBytes());
            reply.put("payloadBoundViolations", statistics.payloadBoundViolations());
        }
    }

    /** Installs the endpoints described by {@code words} (7 per endpoint) and returns the switch's QPNs for them. */
    private static long[] install(ZeroSidedSwitch zeroSidedSwitch, long[] words, boolean producer) {
        long[] queuePairs = new long[words.length / UnitNode.WORDS_PER_ENDPOINT];
        for (int i = 0; i < queuePairs.length; i++) {
            int at = i * UnitNode.WORDS_PER_ENDPOINT;
            SwitchEndpoint endpoint = new SwitchEndpoint(
                    (int) words[at],
                    (int) words[at + 1],
                    (int) words[at + 2],
                    words[at + 3],
                    (int) words[at + 4],
                    (int) words[at + 5],
                    producer);
            queuePairs[i] = zeroSidedSwitch.control().addEndpoint(endpoint);
        }
        return queuePairs;
    }
}
