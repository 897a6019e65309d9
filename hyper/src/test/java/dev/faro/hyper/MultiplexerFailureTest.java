package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.testing.LongValues;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node whose fabric dies mid-exchange (in one JVM: its fabric closes under the open exchange, so its queue pairs
 * vanish as a killed process's do): every worker of every surviving node, whether it sends or waits for messages,
 * fails with one clear {@code NETWORK} error naming the dead node, within seconds and without hanging; the survivors'
 * pools get every message back, and once the node is replaced (a new process: a new multiplexer under the same node
 * index) the survivors reconnect to it and the next query works.
 */
class MultiplexerFailureTest {

    @Test
    void aDeadNodeFailsEverySurvivorWithOneClearErrorAndNoHang() throws Exception {
        int nodes = 3;
        try (HyperCluster cluster = new HyperCluster(nodes, HyperCluster.small())) {
            DecoupledExchangeTest.runQuery(cluster, "before", nodes, TransmissionGroups.repartition(nodes), 6_000);
            List<HyperTransport> transports = cluster.query();
            List<Future<Throwable>> workers = new ArrayList<>();
            List<ExchangeChannel> channels = new ArrayList<>();
            List<Future<ExchangeChannel>> opens = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                HyperTransport transport = transports.get(node);
                opens.add(cluster.pool()
                        .submit(() -> transport.open("dying-x1", TransmissionGroups.repartition(nodes), 1)));
            }
            for (Future<ExchangeChannel> open : opens) {
                channels.add(open.get(60, TimeUnit.SECONDS));
            }
            for (int node = 0; node < 2; node++) {
                ExchangeChannel channel = channels.get(node);
                workers.add(cluster.pool().submit(() -> failureOf(() -> sendForever(channel.sender(0), nodes))));
                workers.add(cluster.pool().submit(() -> failureOf(() -> drain(channel.receiver(0)))));
            }
            Thread.sleep(300); // let the exchange get going; the failure is what is timed, not this
            long killedNs = System.nanoTime();
            cluster.fabrics.get(2).close();
            for (Future<Throwable> worker : workers) {
                Throwable failure = worker.get(30, TimeUnit.SECONDS);
                assertThat(failure).isInstanceOf(FaroException.class);
                assertThat(((FaroException) failure).category()).isEqualTo(FaroException.Category.NETWORK);
                assertThat(failure.getMessage()).contains("the connection to node 2 failed");
            }
            System.out.printf(
                    "[hyper] every survivor's worker failed %d ms after node 2's fabric closed%n",
                    Duration.ofNanos(System.nanoTime() - killedNs).toMillis());
            channels.get(0).close();
            channels.get(1).close();
            cluster.awaitIdle(2);
            for (int node = 0; node < 2; node++) {
                assertThat(cluster.multiplexers.get(node).retained()).isZero();
                assertThat(cluster.multiplexers.get(node).sendMessagesInUse()).isZero();
            }
            // the runtime replaces the dead worker: the survivors reconnect to its new multiplexer, the next query
            // works
            cluster.replace(2, HyperCluster.small());
            long[][] got = DecoupledExchangeTest.runQuery(
                    cluster, "next", nodes, TransmissionGroups.repartition(nodes), 6_000);
            for (int node = 0; node < nodes; node++) {
                int self = node;
                assertThat(got[node])
                        .containsExactly(
                                DecoupledExchangeTest.expected(nodes, 6_000, value -> (int) (value % nodes), self));
            }
            DecoupledExchangeTest.assertPoolsIdle(cluster);
            for (Multiplexer multiplexer : cluster.multiplexers) {
                assertThat(multiplexer.queuePairs()).isEqualTo(nodes - 1);
            }
        }
    }

    private static Throwable failureOf(Runnable work) {
        try {
            work.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    private static void sendForever(ExchangeSender sender, int nodes) {
        for (long value = 0; ; value++) {
            LongValues.write(sender, (int) (value % nodes), value);
        }
    }

    private static void drain(ExchangeReceiver receiver) {
        while (true) {
            var buffer = receiver.take();
            if (buffer == null) {
                throw new IllegalStateException("the stream ended although a node died");
            }
            receiver.release(buffer);
        }
    }
}
