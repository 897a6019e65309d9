package dev.faro.bench.zerosided;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The DFI-like baseline's "nodes" (SIGMOD24 §7's DFI [41], digest §5 item 12 (b)), all in this process on the verbs
 * fabric's {@code shm} provider: one fabric node per DFI source/target thread, each with one send and one receive
 * endpoint of TODS19's RDMA WRITE design (MEMQ/WR, one thread per node) in poll-buffers mode. That design already is
 * DFI's flow channel, so it is reused through its API rather than written again:
 *
 * <ul>
 *   <li>every source owns a private set of segments per target in the target's registered memory (the buffers the
 *       receiver lends it, {@code B_s});
 *   <li>the source fills a local segment and pushes it with one one-sided RDMA WRITE whose last word is the segment's
 *       footer (the seal: a counter, visible last); the target's thread polls the footers and the target CPU does
 *       nothing for the transfer;
 *   <li>credits come back from the consumer: a released segment is announced free with a WRITE into the source's
 *       FreeArr ring; end of stream is the DEPLETED flag of the source's last segment.
 * </ul>
 *
 * What differs from DFI: a target hands out a source's segments smallest seal first from a set, not in ring order (the
 * same order for one RC connection); a source's segments to several targets of a multicast are one message per target
 * (DFI's replicate flow uses the NIC's UD multicast, which this fabric has not): one-sided WRITEs as above, or UD SENDs
 * of TODS19's two-sided design (MESQ/SR), which {@link #config(EndpointDesign, int)} also opens.
 *
 * <p>Coordination code: opened before a timed run, closed after it. Node directories live in a private temporary
 * directory under {@code /dev/shm} (else the temporary directory), removed on close.
 */
final class DfiNodes implements AutoCloseable {

    /** Segment bytes (header, payload, footer) of the V5 shuffle: 64 KiB, the batch of the other V5 series. */
    static final int SEGMENT_BYTES = 64 << 10;

    /** Segments a source owns per target. */
    static final int SEGMENTS_PER_TARGET = 8;

    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(30);

    /** How long {@link #close} waits for the endpoints' close protocols together. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private final Path directory;
    private final Fabric[] fabrics;
    private final NodeEndpoints[] endpoints;

    private DfiNodes(Path directory, Fabric[] fabrics, NodeEndpoints[] endpoints) {
        this.directory = directory;
        this.fabrics = fabrics;
        this.endpoints = endpoints;
    }

    /** MEMQ/WR with one thread per node, poll-buffers mode, {@code segmentBytes} per segment. */
    static EndpointConfig config(int segmentBytes) {
        return config(EndpointDesign.MEMQ_WR, segmentBytes);
    }

    /** {@code design} with one thread per node, {@code segmentBytes} per segment; WRITE designs poll the footers. */
    static EndpointConfig config(EndpointDesign design, int segmentBytes) {
        return EndpointConfig.defaults(design, 1)
                .withBufferBytes(segmentBytes)
                .withBuffersPerPeer(SEGMENTS_PER_TARGET)
                .withWriteCompletionMode(WriteCompletionMode.POLL_BUFFERS);
    }

    /**
     * Opens {@code nodes} fabric nodes and their endpoints of one flow with {@code groups} (which nodes are targets),
     * each node's open on its own thread (opens meet in all-gathers).
     */
    static DfiNodes open(String name, int nodes, EndpointConfig config, TransmissionGroups groups) throws Exception {
        Path directory = Files.createTempDirectory(base(), "faro-dfi-");
        Fabric[] fabrics = new Fabric[nodes];
        NodeEndpoints[] endpoints = new NodeEndpoints[nodes];
        DfiNodes opened = new DfiNodes(directory, fabrics, endpoints);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(nodes, OPEN_TIMEOUT);
        ExecutorService pool = Executors.newFixedThreadPool(
                nodes, Thread.ofPlatform().name("dfi-open-", 0).factory());
        try {
            List<Future<?>> opens = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                int self = node;
                opens.add(pool.submit(() -> {
                    fabrics[self] = Fabrics.open(
                            FabricConfig.of("shm", "dfi-" + self).withOption("shm.directory", directory.toString()));
                    endpoints[self] = EndpointFactory.open(fabrics[self], exchange.member(self), name, config, groups);
                    return null;
                }));
            }
            for (Future<?> open : opens) {
                open.get(OPEN_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
            }
            return opened;
        } catch (Exception e) {
            // stop the opens still running before closing what they opened, and give the opened streams up so that
            // their close does not wait for peers that never came
            pool.shutdownNow();
            try {
                if (!pool.awaitTermination(OPEN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    e.addSuppressed(new IllegalStateException("node opens still running after " + OPEN_TIMEOUT));
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                e.addSuppressed(interrupted);
            }
            try {
                opened.abandon();
                opened.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Path base() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    NodeEndpoints endpoints(int node) {
        return endpoints[node];
    }

    Fabric fabric(int node) {
        return fabrics[node];
    }

    /** Gives every node's stream up (a run failed): the close that follows does not wait for the peers. */
    void abandon() {
        for (NodeEndpoints node : endpoints) {
            if (node != null) {
                node.abandon();
            }
        }
    }

    /**
     * Closes every node's endpoints (their close protocols wait for one another, so each on its own thread), then the
     * fabrics, and removes the directory. The first failure is thrown, the others suppressed. The endpoints get
     * {@link #CLOSE_TIMEOUT} together; past it their fabrics are left open and the close fails.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        List<Thread> closers = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (NodeEndpoints node : endpoints) {
            if (node != null) {
                closers.add(Thread.ofPlatform().name("dfi-close").daemon(true).start(() -> {
                    try {
                        node.close();
                    } catch (RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
        }
        long deadlineNs = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
        boolean closed = true;
        for (Thread closer : closers) {
            try {
                closer.join(Duration.ofNanos(Math.max(1, deadlineNs - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closed &= !closer.isAlive();
        }
        if (!closed) {
            // the fabrics stay open under the endpoints still closing (their memory is not pulled from under them)
            failures.add(new IllegalStateException("endpoints still closing after " + CLOSE_TIMEOUT));
        }
        for (Fabric fabric : fabrics) {
            if (fabric != null && closed) {
                try {
                    fabric.close();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            failures.add(new UncheckedIOException("cannot remove " + directory, e));
        }
        for (RuntimeException e : failures) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
