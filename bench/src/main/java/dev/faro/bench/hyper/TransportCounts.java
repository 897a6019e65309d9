package dev.faro.bench.hyper;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.hyper.ClassicTransport;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.HyperTransport;
import dev.faro.hyper.Multiplexer;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.ExchangeTransports;
import dev.faro.shuffle.transport.TransportNode;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * V1 measured on live objects: {@code nodes} in-process {@code shm} nodes, each fabric wrapped in a
 * {@link CountingFabric}, open one repartition exchange over the classic transport ({@value ClassicTransport#NAME}:
 * n·t unit groups, per-unit channels over {@value ClassicTransport#INNER}) or over {@code hyper} (a multiplexer per
 * node, n server groups) with {@code threads} producing threads per node; every producing thread takes the open
 * buffer of every group and counts the distinct buffers it holds at once, then sends one 8-byte value in each, and
 * every consuming thread drains. The queue pairs the fabrics created are summed over the nodes. Coordination code.
 *
 * @param queuePairs RC and UD queue pairs the nodes' fabrics created, summed over the nodes
 * @param buffersPerProducer the most distinct open buffers one producing thread held at once
 */
record TransportCounts(long queuePairs, int buffersPerProducer) {

    private static final SharedSecret SECRET = SharedSecret.of("bench-hyper-v1", "bench hyper v1");

    /** Counts {@code transport} ({@value ClassicTransport#NAME} or {@value HyperTransport#NAME}). */
    static TransportCounts measure(String transport, int nodes, int threads) throws InterruptedException {
        boolean classic = transport.equals(ClassicTransport.NAME);
        Path directory = InProcessHyperCluster.scratchDirectory("hyper-v1");
        List<CountingFabric> fabrics = new ArrayList<>();
        List<TransportNode.Shared> shared = new ArrayList<>();
        List<Multiplexer> multiplexers = new ArrayList<>();
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            LocalPeerExchange.Group group = LocalPeerExchange.group(nodes, Duration.ofSeconds(60));
            List<ExchangeTransport> transports = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                CountingFabric fabric = new CountingFabric(Fabrics.open(
                        FabricConfig.of("shm", "v1-" + node).withOption("shm.directory", directory.toString())));
                fabrics.add(fabric);
                if (classic) {
                    shared.add(new TransportNode.Shared());
                    transports.add(ExchangeTransports.create(
                            ClassicTransport.NAME,
                            new TransportNode(
                                    fabric,
                                    group.member(node),
                                    SECRET,
                                    EndpointConfig.DEFAULT_STALL_TIMEOUT,
                                    new ProgressSignal(),
                                    shared.getLast())));
                } else {
                    Multiplexer multiplexer = new Multiplexer(
                            fabric,
                            node,
                            nodes,
                            HyperConfig.defaults().withMessageBytes(4096).withSendMessages(16));
                    multiplexers.add(multiplexer);
                    transports.add(new HyperTransport(
                            multiplexer, group.member(node), Duration.ofSeconds(60), ProgressSignal.NONE));
                }
            }
            TransmissionGroups groups = classic ? unitGroups(nodes, threads) : TransmissionGroups.repartition(nodes);
            List<Future<Integer>> runs = new ArrayList<>();
            for (ExchangeTransport carrier : transports) {
                runs.add(pool.submit(() -> exchangeOnce(carrier, groups, threads, pool)));
            }
            int buffers = 0;
            for (Future<Integer> run : runs) {
                buffers = Math.max(buffers, run.get(120, TimeUnit.SECONDS));
            }
            long queuePairs = 0;
            for (CountingFabric fabric : fabrics) {
                queuePairs += fabric.rcQueuePairs() + fabric.udQueuePairs();
            }
            return new TransportCounts(queuePairs, buffers);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the measured " + transport + " exchange failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
            shared.forEach(TransportNode.Shared::close);
            multiplexers.forEach(Multiplexer::close);
            fabrics.forEach(Fabric::close);
            InProcessHyperCluster.remove(directory, line -> {});
        }
    }

    /** The engine's n·t unit groups of a classic repartition: group g is node g / t alone. */
    private static TransmissionGroups unitGroups(int nodes, int threads) {
        List<int[]> groups = new ArrayList<>();
        for (int g = 0; g < nodes * threads; g++) {
            groups.add(new int[] {g / threads});
        }
        return TransmissionGroups.of(nodes, groups);
    }

    /** One exchange at one node; returns the most distinct buffers one producing thread held. */
    private static int exchangeOnce(
            ExchangeTransport transport, TransmissionGroups groups, int threads, ExecutorService pool)
            throws Exception {
        try (ExchangeChannel channel = transport.open("v1-counts", groups, threads)) {
            List<Future<?>> receivers = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                ExchangeReceiver receiver = channel.receiver(thread);
                receivers.add(pool.submit(() -> {
                    ShuffleBuffer buffer;
                    while ((buffer = receiver.take()) != null) {
                        receiver.release(buffer);
                    }
                    return null;
                }));
            }
            int most = 0;
            for (int thread = 0; thread < threads; thread++) {
                ExchangeSender sender = channel.sender(thread);
                Set<Long> held = new HashSet<>();
                for (int g = 0; g < groups.groupCount(); g++) {
                    held.add(sender.payload(g).address());
                }
                most = Math.max(most, held.size());
                for (int g = 0; g < groups.groupCount(); g++) {
                    sender.payload(g).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, g);
                    sender.length(g, Long.BYTES);
                    sender.send(g);
                }
                sender.finish();
            }
            for (Future<?> receiver : receivers) {
                receiver.get(60, TimeUnit.SECONDS);
            }
            return most;
        }
    }
}
