package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.zerosided.AgentRunner;
import dev.faro.zerosided.BufferExposure;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.nic.SimulatedRcNic;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchEndpoint;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;

/**
 * Node 1 or 2 of a zero-sided point: a host of processing units with one simulated RC NIC (its own agent thread: the
 * NIC's, not the units') on a port of the point's packet link (shared memory or UDP on 127.0.0.1). Exposes one buffer per flow, connects them to the switch, and
 * runs the producer (node 1) or consumer (node 2) threads, which only push or pop. Replies the items counted in the
 * window (consumers) and the endpoint threads' communication time.
 *
 * <p>Coordination code around the endpoint threads.
 */
final class UnitNode {

    /** Words per endpoint description: port, queue pair, key, address, capacity, item size, producer flag. */
    static final int WORDS_PER_ENDPOINT = 7;

    private UnitNode() {}

    static void run(WorkerContext context, ZeroSidedPoint point, SwitchConfig config, ObjectNode reply)
            throws Exception {
        boolean producer = context.nodeIndex() == ZeroSidedPointHandler.PRODUCER_NODE;
        try (Arena arena = Arena.ofShared()) {
            PacketLink link = LinkKind.of(point.link()).open();
            SimulatedRcNic nic = new SimulatedRcNic(link, config.mtuBytes());
            try {
                List<BufferExposure> exposures = new ArrayList<>();
                long[] words = new long[point.flows() * WORDS_PER_ENDPOINT];
                for (int flow = 0; flow < point.flows(); flow++) {
                    BufferExposure exposure =
                            BufferExposure.allocate(nic, arena, point.capacity(), point.itemBytes(), producer);
                    exposures.add(exposure);
                    SwitchEndpoint endpoint = exposure.endpoint();
                    int at = flow * WORDS_PER_ENDPOINT;
                    words[at] = endpoint.port();
                    words[at + 1] = endpoint.queuePair();
                    words[at + 2] = endpoint.remoteKey();
                    words[at + 3] = endpoint.baseAddress();
                    words[at + 4] = endpoint.capacity();
                    words[at + 5] = endpoint.itemBytes();
                    words[at + 6] = producer ? 1 : 0;
                }
                context.exchange().allGather("endpoints", ZeroSidedPointHandler.encode(words));
                long[] answer = ZeroSidedPointHandler.decode(
                        context.exchange().allGather("switch", new byte[0])[ZeroSidedPointHandler.SWITCH_NODE]);
                int switchPort = (int) answer[0];
                List<ZeroSidedBuffer> buffers = new ArrayList<>();
                for (int flow = 0; flow < point.flows(); flow++) {
                    int switchQp = (int) answer[1 + (producer ? 0 : point.flows()) + flow];
                    buffers.add(exposures.get(flow).view(null));
                    exposures.get(flow).connect(switchPort, switchQp, 0);
                }
                AgentRunner nicRunner = new AgentRunner("zerosided-nic", List.of(nic::doWork), link::awaitDatagram);
                try {
                    reply.put(
                            "networkThreadsPinned",
                            CorePlacement.of(point.pin()).pinNetworkThreads(1));
                    runEndpoints(context, point, producer, buffers, reply);
                } finally {
                    nicRunner.close();
                }
                if (nicRunner.failure() != null) {
                    throw new IllegalStateException("the NIC failed: " + nicRunner.failure(), nicRunner.failure());
                }
            } finally {
                nic.close();
            }
        }
    }

    /** Runs the endpoint threads of one side for the point's window; shared with the CPU-driven baseline. */
    static void runEndpoints(
            WorkerContext context,
            ZeroSidedPoint point,
            boolean producer,
            List<ZeroSidedBuffer> buffers,
            ObjectNode reply)
            throws Exception {
        EndpointThreads threads = new EndpointThreads(CorePlacement.of(point.pin()), point.endpointWork());
        long start = System.nanoTime();
        long windowStart = start + (long) (point.warmupSeconds() * 1e9);
        long windowEnd = windowStart + (long) (point.seconds() * 1e9);
        if (producer) {
            threads.startProducers(buffers, windowStart, windowEnd);
            try {
                context.exchange().allGather("done", new byte[0]);
            } finally {
                threads.stop();
            }
        } else {
            threads.startConsumers(buffers, windowStart, windowEnd);
            try {
                threads.stop();
            } finally {
                context.exchange().allGather("done", new byte[0]);
            }
            reply.put("items", threads.counted());
            reply.put("bytesPerSecond", threads.counted() * (double) point.itemBytes() / point.seconds());
        }
        reply.put("communicationNanos", threads.communicationNanos());
        reply.put("workUnits", threads.units());
        reply.put("checksum", threads.checksum());
    }
}
