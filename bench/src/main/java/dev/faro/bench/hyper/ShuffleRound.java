package dev.faro.bench.hyper;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One all-to-all shuffle on an {@link InProcessHyperCluster}: every node opens one repartition exchange with one
 * sender and one receiver thread; once every node is open, each sender hands its multiplexer {@code messagesPerNode}
 * full messages, in rounds of one message for each other node (in an order drawn anew per round and node, as hash
 * partitioning fills its buffers), and nothing for itself; receivers take and release until their end of stream. The
 * time runs from the moment every sender may start to the last receiver's end of stream. Coordination code.
 */
final class ShuffleRound {

    /** What one round measured. */
    record Result(int nodes, long payloadBytesPerNode, long nanos, long phases) {

        double mibPerSecondPerNode() {
            return payloadBytesPerNode / (1024.0 * 1024.0) / (nanos / 1e9);
        }
    }

    private final InProcessHyperCluster cluster;
    private final String exchange;
    private final int messagesPerNode;

    ShuffleRound(InProcessHyperCluster cluster, String exchange, int messagesPerNode) {
        this.cluster = cluster;
        this.exchange = exchange;
        this.messagesPerNode = messagesPerNode;
    }

    Result run() throws InterruptedException {
        int nodes = cluster.nodes();
        long phasesBefore = phases();
        AtomicLong start = new AtomicLong();
        AtomicLong end = new AtomicLong();
        AtomicLong received = new AtomicLong();
        AtomicLong payloadBytes = new AtomicLong();
        CyclicBarrier ready = new CyclicBarrier(nodes, () -> start.set(System.nanoTime()));
        ExecutorService threads = Executors.newFixedThreadPool(2 * nodes);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            List<ExchangeChannel> channels = openAll(threads, nodes);
            try {
                for (int node = 0; node < nodes; node++) {
                    ExchangeChannel channel = channels.get(node);
                    int self = node;
                    tasks.add(threads.submit(() -> {
                        ExchangeReceiver receiver = channel.receiver(0);
                        ShuffleBuffer buffer;
                        long bytes = 0;
                        while ((buffer = receiver.take()) != null) {
                            bytes += buffer.payloadLength();
                            receiver.release(buffer);
                        }
                        received.addAndGet(bytes);
                        end.accumulateAndGet(System.nanoTime(), Math::max);
                        return null;
                    }));
                    tasks.add(threads.submit(() -> {
                        ExchangeSender sender = channel.sender(0);
                        ready.await(60, TimeUnit.SECONDS);
                        payloadBytes.set(send(sender, self, nodes, messagesPerNode, null));
                        return null;
                    }));
                }
                for (Future<?> task : tasks) {
                    task.get(600, TimeUnit.SECONDS);
                }
            } finally {
                for (ExchangeChannel channel : channels) {
                    channel.close();
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the shuffle '" + exchange + "' failed: " + e.getMessage(), e);
        } finally {
            threads.shutdownNow();
        }
        long perNode = payloadBytes.get() * messagesPerNode;
        if (received.get() != perNode * nodes) {
            throw new IllegalStateException(
                    "the shuffle '" + exchange + "' received " + received.get() + " bytes, sent " + perNode * nodes);
        }
        return new Result(nodes, perNode, end.get() - start.get(), (phases() - phasesBefore) / nodes);
    }

    /**
     * Sends {@code messagesPerNode} full messages from node {@code self} to the others, in rounds of one per other
     * node in an order drawn anew per round (seeded by node), as hash partitioning fills its buffers; each message
     * carries its number at offset 0 and {@code self} at offset 8. Counts the messages per destination into {@code
     * sentTo} (if not null) and finishes the sender; returns the payload bytes of one message. Shared by the
     * in-process round and {@link HyperShuffleHandler}.
     */
    static long send(ExchangeSender sender, int self, int nodes, int messagesPerNode, long[] sentTo) {
        Random order = new Random(31L * self + nodes);
        int[] others = new int[nodes - 1];
        for (int k = 1; k < nodes; k++) {
            others[k - 1] = (self + k) % nodes;
        }
        long payload = 0;
        for (int sent = 0; sent < messagesPerNode; ) {
            for (int i = others.length - 1; i > 0; i--) {
                int j = order.nextInt(i + 1);
                int swap = others[i];
                others[i] = others[j];
                others[j] = swap;
            }
            for (int k = 0; k < others.length && sent < messagesPerNode; k++, sent++) {
                int group = others[k];
                MemorySegment bytes = sender.payload(group);
                payload = bytes.byteSize();
                bytes.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, sent);
                bytes.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, self);
                sender.length(group, (int) payload);
                sender.send(group);
                if (sentTo != null) {
                    sentTo[group]++;
                }
            }
        }
        sender.finish();
        return payload;
    }

    private List<ExchangeChannel> openAll(ExecutorService threads, int nodes)
            throws InterruptedException, ExecutionException, TimeoutException {
        List<Future<ExchangeChannel>> opening = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            int self = node;
            opening.add(threads.submit(
                    () -> cluster.transport(self).open(exchange, TransmissionGroups.repartition(nodes), 1)));
        }
        List<ExchangeChannel> channels = new ArrayList<>();
        for (Future<ExchangeChannel> channel : opening) {
            channels.add(channel.get(120, TimeUnit.SECONDS));
        }
        return channels;
    }

    private long phases() {
        long phases = 0;
        for (int node = 0; node < cluster.nodes(); node++) {
            phases += cluster.multiplexer(node).phases();
        }
        return phases;
    }
}
