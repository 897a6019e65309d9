package dev.faro.zerosided.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * After open, the engine's side of the zero-sided transport allocates nothing per buffer: two nodes in this JVM
 * repartition small buffers through the switch, and each sending and receiving thread reads its own allocation counter
 * around {@value #MEASURED} buffers after a warm-up; the bytes must stay a small constant.
 */
class ZeroSidedAllocationTest {

    private static final int NODES = 2;
    private static final int WARM_UP = 1_000;
    private static final int MEASURED = 1_000;
    private static final int BUFFERS = WARM_UP + MEASURED + 200;
    private static final long ALLOWED_BYTES = 4096;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void payloadSendTakeAndReleaseAllocateNothingPerBuffer() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        List<LinkPool> links = List.of(new LinkPool(), new LinkPool());
        try {
            LocalPeerExchange.Group group = LocalPeerExchange.group(NODES, Duration.ofSeconds(30));
            List<Future<ExchangeChannel>> opening = new ArrayList<>();
            for (int node = 0; node < NODES; node++) {
                ZeroSidedTransport transport = new ZeroSidedTransport(
                        links.get(node), group.member(node), Duration.ofSeconds(30), ProgressSignal.NONE);
                opening.add(pool.submit(() -> transport.open("alloc", TransmissionGroups.repartition(NODES), 1)));
            }
            List<ExchangeChannel> channels = new ArrayList<>();
            for (Future<ExchangeChannel> channel : opening) {
                channels.add(channel.get(60, TimeUnit.SECONDS));
            }
            List<Future<Long>> senders = new ArrayList<>();
            List<Future<Long>> receivers = new ArrayList<>();
            for (ExchangeChannel channel : channels) {
                ExchangeSender sender = channel.sender(0);
                ExchangeReceiver receiver = channel.receiver(0);
                senders.add(pool.submit(() -> send(sender)));
                receivers.add(pool.submit(() -> receive(receiver)));
            }
            for (int node = 0; node < NODES; node++) {
                assertThat(senders.get(node).get(120, TimeUnit.SECONDS))
                        .as("bytes node %d's sender allocated over %d buffers", node, MEASURED)
                        .isLessThan(ALLOWED_BYTES);
                assertThat(receivers.get(node).get(120, TimeUnit.SECONDS))
                        .as("bytes node %d's receiver allocated over %d buffers", node, MEASURED)
                        .isLessThan(ALLOWED_BYTES);
            }
            List<Future<?>> closing = new ArrayList<>(); // collective: every node closes at once
            for (ExchangeChannel channel : channels) {
                closing.add(pool.submit(channel::close));
            }
            for (Future<?> close : closing) {
                close.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            links.forEach(LinkPool::close);
        }
    }

    /** Sends BUFFERS buffers of one long, alternating the node; returns the bytes allocated in the measured window. */
    private static long send(ExchangeSender sender) {
        long before = 0;
        long after = 0;
        for (int i = 0; i < BUFFERS; i++) {
            if (i == WARM_UP) {
                before = THREADS.getCurrentThreadAllocatedBytes();
            } else if (i == WARM_UP + MEASURED) {
                after = THREADS.getCurrentThreadAllocatedBytes();
            }
            int group = i % NODES;
            sender.payload(group).set(ValueLayout.JAVA_LONG, 0, i);
            sender.length(group, Long.BYTES);
            sender.send(group);
        }
        sender.finish();
        return after - before;
    }

    /** Takes every buffer; returns the bytes allocated while taking the measured window's. */
    private static long receive(ExchangeReceiver receiver) {
        long before = 0;
        long after = 0;
        int taken = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            receiver.release(buffer);
            taken++;
            if (taken == WARM_UP / NODES) {
                before = THREADS.getCurrentThreadAllocatedBytes();
            } else if (taken == (WARM_UP + MEASURED) / NODES) {
                after = THREADS.getCurrentThreadAllocatedBytes();
            }
        }
        return after - before;
    }
}
