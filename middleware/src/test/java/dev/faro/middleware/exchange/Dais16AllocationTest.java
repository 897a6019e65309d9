package dev.faro.middleware.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DAIS16 V7: after open, sending and receiving allocate nothing per row or per WRITE. Two nodes in this JVM over shm
 * repartition small buffers (64 B rows, one record each, so every few rows make a WRITE and rings wrap and fill)
 * through the transport; after a warm-up each sending and receiving thread reads its own allocation counter
 * ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}) around {@value #MEASURED} rows, and node 0's
 * sender reads both network threads' counters around the same window. The bytes must be a small constant, not a
 * number that grows with the rows, besides what the node's demux queues allocated growing in the window (rows a
 * waiting sender read for its receiver; the paper's demux caveat: by doubling, never per row), counted separately.
 */
class Dais16AllocationTest {

    private static final int NODES = 2;
    private static final int ROW_BYTES = 64;
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 30_000;
    private static final int ROWS = WARM_UP + MEASURED + 2_000;
    /** What one window may allocate, whatever its length: well under one byte per row. */
    private static final long ALLOWED_BYTES = 4096;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void sendAndReceiveAllocateNothingPerRowOrWrite() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        long[] sent = new long[NODES];
        long[] received = new long[NODES];
        long[] network = new long[1];
        long[] demuxGrown = new long[NODES];
        try (InJvmMiddlewareNodes cluster = new InJvmMiddlewareNodes(NODES)) {
            List<Dais16Transport> transports = cluster.query();
            List<ExchangeChannel> channels = InJvmMiddlewareNodes.openEverywhere(
                    pool, transports, "v7", TransmissionGroups.repartition(NODES), 1);
            List<Thread> networkThreads = new ArrayList<>();
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().startsWith("middleware-network-")) {
                    networkThreads.add(thread);
                }
            }
            assertThat(networkThreads)
                    .as("the network threads of the two nodes")
                    .hasSize(NODES);
            List<Future<?>> runs = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                int self = node;
                ExchangeSender sender = channels.get(node).sender(0);
                ExchangeReceiver receiver = channels.get(node).receiver(0);
                runs.add(pool.submit(() -> {
                    sent[self] = send(sender, self == 0 ? networkThreads : List.of(), network);
                    return null;
                }));
                runs.add(pool.submit(() -> {
                    received[self] = receive(receiver);
                    return null;
                }));
            }
            long[] demuxBefore = new long[NODES];
            for (int node = 0; node < NODES; node++) {
                demuxBefore[node] = demuxGrown(cluster, node);
            }
            for (Future<?> run : runs) {
                run.get(180, TimeUnit.SECONDS);
            }
            for (int node = 0; node < NODES; node++) {
                demuxGrown[node] = demuxGrown(cluster, node) - demuxBefore[node];
            }
            for (ExchangeChannel channel : channels) {
                channel.close();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf(
                "#### DAIS16: bytes allocated over %d rows: senders %d, %d; receivers %d, %d; network threads %d;"
                        + " demux queues grew by %d, %d over the whole run%n",
                MEASURED, sent[0], sent[1], received[0], received[1], network[0], demuxGrown[0], demuxGrown[1]);
        for (int node = 0; node < NODES; node++) {
            assertThat(sent[node])
                    .as("bytes the sender of node %d allocated over %d rows", node, MEASURED)
                    .isLessThan(ALLOWED_BYTES + demuxGrown[node]);
            assertThat(received[node])
                    .as("bytes the receiver of node %d allocated over %d rows", node, MEASURED)
                    .isLessThan(ALLOWED_BYTES + demuxGrown[node]);
        }
        assertThat(network[0])
                .as("bytes both network threads allocated while %d rows were sent", MEASURED)
                .isLessThan(ALLOWED_BYTES);
    }

    /** Sends ROWS rows, one per buffer, alternating the node; returns the measured bytes. */
    private static long send(ExchangeSender sender, List<Thread> networkThreads, long[] network) {
        long before = 0;
        long after = 0;
        long networkBefore = 0;
        for (int i = 0; i < ROWS; i++) {
            if (i == WARM_UP) {
                networkBefore = allocated(networkThreads);
                before = THREADS.getCurrentThreadAllocatedBytes();
            } else if (i == WARM_UP + MEASURED) {
                after = THREADS.getCurrentThreadAllocatedBytes();
                network[0] = allocated(networkThreads) - networkBefore;
            }
            int group = i & 1;
            MemorySegment payload = sender.payload(group);
            payload.set(ValueLayout.JAVA_LONG, 0, i);
            sender.length(group, ROW_BYTES);
            sender.send(group);
        }
        sender.finish();
        return after - before;
    }

    /** Bytes the demux queues of node {@code node}'s one worker allocated growing so far. */
    private static long demuxGrown(InJvmMiddlewareNodes cluster, int node) {
        return cluster.middlewares.get(node).middleware().worker(0).demuxBytesGrown();
    }

    private static long allocated(List<Thread> threads) {
        long bytes = 0;
        for (Thread thread : threads) {
            bytes += THREADS.getThreadAllocatedBytes(thread.threadId());
        }
        return bytes;
    }

    /** Takes every row until the end of the stream; returns the bytes allocated over the measured window. */
    private static long receive(ExchangeReceiver receiver) {
        long before = 0;
        long after = 0;
        int count = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            if (count == WARM_UP) {
                before = THREADS.getCurrentThreadAllocatedBytes();
            } else if (count == WARM_UP + MEASURED) {
                after = THREADS.getCurrentThreadAllocatedBytes();
            }
            count++;
            receiver.release(buffer);
        }
        assertThat(count).as("rows received").isEqualTo(ROWS);
        return after - before;
    }
}
