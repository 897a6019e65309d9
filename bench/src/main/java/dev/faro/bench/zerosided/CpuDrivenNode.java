package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.cluster.worker.WorkerContext;
import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;

/**
 * A node of a CPU-driven point, on the worker's verbs fabric ({@code shm} by default): node 1 holds the producer
 * buffers in registered memory and runs the {@link CpuDriver} threads beside the producer threads; node 2 holds the
 * consumer buffers (remote-writable) and runs the consumer threads, passively; node 0 only takes part in the
 * all-gathers. The endpoint threads and buffers are the zero-sided points' ({@link UnitNode#runEndpoints}). Replies
 * the drivers' CPU time besides the window's items.
 *
 * <p>Coordination code.
 */
final class CpuDrivenNode {

    private static final HexFormat HEX = HexFormat.of();

    private CpuDrivenNode() {}

    static void run(WorkerContext context, ZeroSidedPoint point, ObjectNode reply) throws Exception {
        int node = context.nodeIndex();
        if (node == ZeroSidedPointHandler.SWITCH_NODE) {
            context.exchange().allGather("cpu-setup", new byte[0]);
            context.exchange().allGather("cpu-connected", new byte[0]);
            context.exchange().allGather("done", new byte[0]);
            context.exchange().allGather("stopped", new byte[0]);
            return;
        }
        boolean producer = node == ZeroSidedPointHandler.PRODUCER_NODE;
        Fabric fabric = context.fabric();
        CorePlacement placement = CorePlacement.of(point.pin());
        placement.pinNetworkThreads(0); // the verbs fabric's progress thread (net), the NIC of the baseline
        long length = ZeroSidedBufferDescriptor.lengthBytes(point.capacity(), point.itemBytes());
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            MemoryRegion[] regions = new MemoryRegion[point.flows()];
            List<ZeroSidedBuffer> buffers = new ArrayList<>();
            for (int flow = 0; flow < point.flows(); flow++) {
                regions[flow] = fabric.register(
                        length, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
                resources.add(regions[flow]);
                buffers.add(
                        producer
                                ? ZeroSidedBuffer.producer(
                                        regions[flow].segment(), point.capacity(), point.itemBytes(), null)
                                : ZeroSidedBuffer.consumer(
                                        regions[flow].segment(), point.capacity(), point.itemBytes(), null));
            }
            int drivers = point.drivers();
            CompletionQueue[] queues = new CompletionQueue[drivers];
            RcQueuePair[] pairs = new RcQueuePair[drivers];
            int depth = 2 * ((point.flows() + drivers - 1) / drivers) + 4;
            StringBuilder mine = new StringBuilder();
            for (int d = 0; d < drivers; d++) {
                queues[d] = fabric.createCompletionQueue(4 * depth);
                resources.add(queues[d]);
                pairs[d] = fabric.createRcQueuePair(QueuePairConfig.of(queues[d], depth, 1));
                resources.add(pairs[d]);
                mine.append(HEX.formatHex(pairs[d].address().toBytes())).append(' ');
            }
            mine.append('|');
            if (!producer) {
                for (MemoryRegion region : regions) {
                    mine.append(' ').append(HEX.formatHex(region.remoteKey().toBytes()));
                }
            }
            byte[][] all =
                    context.exchange().allGather("cpu-setup", mine.toString().getBytes(StandardCharsets.US_ASCII));
            String[] other = new String(
                            all[producer ? ZeroSidedPointHandler.CONSUMER_NODE : ZeroSidedPointHandler.PRODUCER_NODE],
                            StandardCharsets.US_ASCII)
                    .split("\\|", -1);
            String[] addresses = other[0].strip().split(" ");
            for (int d = 0; d < drivers; d++) {
                pairs[d].connect(fabric.importAddress(HEX.parseHex(addresses[d])));
            }
            context.exchange().allGather("cpu-connected", new byte[0]);
            if (!producer) {
                UnitNode.runEndpoints(context, point, false, buffers, reply);
                // the drivers may still be writing: keep the buffers until they have stopped
                context.exchange().allGather("stopped", new byte[0]);
                return;
            }
            String[] keys = other[1].strip().split(" ");
            RemoteKey[] consumers = new RemoteKey[point.flows()];
            for (int flow = 0; flow < point.flows(); flow++) {
                consumers[flow] = fabric.importRemoteKey(HEX.parseHex(keys[flow]));
            }
            List<CpuDriver> driverLoops = new ArrayList<>();
            List<Thread> driverThreads = new ArrayList<>();
            for (int d = 0; d < drivers; d++) {
                MemoryRegion scratch = fabric.register(16L * point.flows(), EnumSet.of(Access.LOCAL_WRITE));
                resources.add(scratch);
                int[] flows = java.util.stream.IntStream.range(0, point.flows())
                        .filter(f -> f % drivers == driverLoops.size())
                        .toArray();
                CpuDriver driver = new CpuDriver(flows, regions, consumers, scratch, pairs[d], queues[d], point);
                driverLoops.add(driver);
                driverThreads.add(Thread.ofPlatform().name("cpu-driver").start(() -> {
                    placement.pinEndpointThread();
                    driver.run();
                }));
            }
            try {
                UnitNode.runEndpoints(context, point, true, buffers, reply);
            } finally {
                driverLoops.forEach(CpuDriver::stop);
                for (Thread thread : driverThreads) {
                    thread.join();
                }
                context.exchange().allGather("stopped", new byte[0]);
            }
            long cpu = 0;
            for (CpuDriver driver : driverLoops) {
                if (driver.failure() != null) {
                    throw driver.failure();
                }
                cpu += driver.cpuNanos();
            }
            reply.put("driverCpuNanos", cpu);
        } finally {
            for (int i = resources.size() - 1; i >= 0; i--) {
                resources.get(i).close();
            }
        }
    }
}
