package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The data path allocates nothing in steady state: two nodes in this JVM over {@code shm} repartition buffers through
 * each design's endpoints (ACQUIRE / PUTDATA on one thread per node, GETDATA / RELEASE on another), with two buffers
 * per peer so that the senders wait for buffers and credit and the receivers for data. After a warm-up, each thread
 * reads its own allocation counter ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}) around
 * {@value #MEASURED} buffers; the bytes allocated must be a small constant, not a number that grows with the buffers.
 */
class SteadyStateAllocationTest {

    private static final int NODES = 2;
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    /** Buffers each sender sends, half to each node; each receiver gets as many. */
    private static final int MESSAGES = WARM_UP + MEASURED + 2_000;
    /** What one window may allocate, whatever its length: well under one byte per buffer. */
    private static final long ALLOWED_BYTES = 4096;

    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-allocation-test");
    }

    @AfterAll
    static void removeDirectory() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    @ParameterizedTest
    @EnumSource(EndpointDesign.class)
    void sendAndReceiveAllocateNothingInSteadyState(EndpointDesign design) throws Exception {
        EndpointConfig config = EndpointConfig.defaults(design, 1)
                .withBufferBytes(1024)
                .withBuffersPerPeer(2)
                .withStallTimeout(Duration.ofSeconds(60));
        TransmissionGroups groups = TransmissionGroups.repartition(NODES);
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(NODES, Duration.ofSeconds(60));
        ExecutorService pool = Executors.newCachedThreadPool();
        long[] sent = new long[NODES];
        long[] received = new long[NODES];
        long[] waitedNanos = new long[NODES];
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                int self = node;
                runs.add(pool.submit(() -> {
                    FabricConfig fabricConfig =
                            FabricConfig.of("shm", "node-" + self).withOption("shm.directory", directory.toString());
                    try (Fabric fabric = Fabrics.open(fabricConfig);
                            NodeEndpoints endpoints =
                                    EndpointFactory.open(fabric, exchange.member(self), "allocation", config, groups)) {
                        Future<Long> receiving = pool.submit(() -> receive(endpoints.receiver(0)));
                        sent[self] = send(endpoints.sender(0));
                        received[self] = receiving.get(120, TimeUnit.SECONDS);
                        waitedNanos[self] = endpoints.sender(0).bufferWaitNanos()
                                + endpoints.sender(0).creditWaitNanos()
                                + endpoints.receiver(0).dataWaitNanos();
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(180, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        System.out.printf(
                "#### %s: bytes allocated over %d buffers: senders %d, %d; receivers %d, %d"
                        + " (threads blocked in waits: %d, %d ms)%n",
                design.paperName(),
                MEASURED,
                sent[0],
                sent[1],
                received[0],
                received[1],
                waitedNanos[0] / 1_000_000,
                waitedNanos[1] / 1_000_000);
        for (int node = 0; node < NODES; node++) {
            assertThat(sent[node])
                    .as("bytes the sender of node %d allocated over %d buffers", node, MEASURED)
                    .isLessThan(ALLOWED_BYTES);
            assertThat(received[node])
                    .as("bytes the receiver of node %d allocated over %d buffers", node, MEASURED)
                    .isLessThan(ALLOWED_BYTES);
        }
    }

    /** Sends MESSAGES buffers, alternating the destination, then DEPLETED to both; returns the measured bytes. */
    private static long send(SendEndpoint sender) {
        int[][] single = {{0}, {1}};
        long before = 0;
        long after = 0;
        for (int i = 0; i < MESSAGES; i++) {
            if (i == WARM_UP) {
                before = allocatedBytes();
            } else if (i == WARM_UP + MEASURED) {
                after = allocatedBytes();
            }
            ShuffleBuffer buffer = sender.acquire();
            buffer.payload().set(ValueLayout.JAVA_LONG, 0, i);
            buffer.payloadLength(Long.BYTES);
            sender.putData(buffer, single[i & 1], StreamState.MORE_DATA);
        }
        ShuffleBuffer last = sender.acquire();
        last.payloadLength(0);
        sender.putData(last, new int[] {0, 1}, StreamState.DEPLETED);
        return after - before;
    }

    /** Takes every buffer until the end of the stream; returns the bytes allocated over the measured window. */
    private static long receive(ReceiveEndpoint receiver) {
        long before = 0;
        long after = 0;
        int count = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.getData()) != null) {
            if (buffer.payloadLength() > 0) {
                if (count == WARM_UP) {
                    before = allocatedBytes();
                } else if (count == WARM_UP + MEASURED) {
                    after = allocatedBytes();
                }
                count++;
            }
            receiver.release(buffer);
        }
        assertThat(count).as("buffers received").isEqualTo(MESSAGES);
        return after - before;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
