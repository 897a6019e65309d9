package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The data path allocates nothing in steady state (as the shuffle module's test of the same name does for the
 * designs): two nodes in this JVM repartition small messages through one exchange, a worker per node sending and
 * another receiving; after a warm-up, each worker reads its own allocation counter around {@value #MEASURED}
 * messages, and the bytes must be a small constant, not a number that grows with the messages. The network threads'
 * own loop is allocation-free by construction (its counters are checked here as a sanity check that it ran).
 */
class SteadyStateAllocationTest {

    private static final int WARM_UP = 10_000;
    private static final int MEASURED = 20_000;
    private static final int MESSAGES = WARM_UP + MEASURED + 1_000;
    private static final long ALLOWED_BYTES = 4096;

    @Test
    void sendAndReceiveAllocateNothingInSteadyState() throws Exception {
        HyperConfig config = HyperCluster.small().withMessageBytes(1024).withSendMessages(8);
        try (HyperCluster cluster = new HyperCluster(2, config)) {
            List<HyperTransport> transports = cluster.query();
            List<Future<long[]>> nodes = new ArrayList<>();
            for (int node = 0; node < 2; node++) {
                HyperTransport transport = transports.get(node);
                nodes.add(cluster.pool().submit(() -> {
                    try (ExchangeChannel channel = transport.open("alloc-x1", TransmissionGroups.repartition(2), 1)) {
                        ExchangeReceiver receiver = channel.receiver(0);
                        Future<Long> received = cluster.pool().submit(() -> receive(receiver));
                        long sent = send(channel.sender(0));
                        return new long[] {sent, received.get(120, TimeUnit.SECONDS)};
                    }
                }));
            }
            for (int node = 0; node < 2; node++) {
                long[] bytes = nodes.get(node).get(180, TimeUnit.SECONDS);
                System.out.printf(
                        "#### hyper node %d: bytes allocated over %d messages: sender %d, receiver %d%n",
                        node, MEASURED, bytes[0], bytes[1]);
                assertThat(bytes[0]).as("sender of node %d", node).isLessThan(ALLOWED_BYTES);
                assertThat(bytes[1]).as("receiver of node %d", node).isLessThan(ALLOWED_BYTES);
                assertThat(cluster.multiplexers.get(node).messagesSent()).isGreaterThan(MESSAGES / 2);
            }
            DecoupledExchangeTest.assertPoolsIdle(cluster);
        }
    }

    /** Sends MESSAGES one-value messages, alternating the destination; returns the measured window's bytes. */
    private static long send(ExchangeSender sender) {
        long before = 0;
        long after = 0;
        for (int i = 0; i < MESSAGES; i++) {
            if (i == WARM_UP) {
                before = allocatedBytes();
            } else if (i == WARM_UP + MEASURED) {
                after = allocatedBytes();
            }
            int group = i & 1;
            sender.payload(group).set(ValueLayout.JAVA_LONG_UNALIGNED, 0, i);
            sender.length(group, Long.BYTES);
            sender.send(group);
        }
        sender.finish();
        return after - before;
    }

    private static long receive(ExchangeReceiver receiver) {
        long before = 0;
        long after = 0;
        int count = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            if (count == WARM_UP) {
                before = allocatedBytes();
            } else if (count == WARM_UP + MEASURED) {
                after = allocatedBytes();
            }
            count++;
            receiver.release(buffer);
        }
        assertThat(count).as("messages received").isEqualTo(MESSAGES);
        return after - before;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
