package dev.faro.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Table;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.DesignTransport;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exchanges open on a thread of their own while the first pipelines run ({@link ExchangeOpener}): a query whose
 * exchanges all open gives its rows; an open that fails at one node fails the query on every node, and every channel
 * that did open is closed, whatever the timing.
 */
class ExchangeOpenerTest {

    private static final List<Table> TABLES = TestTables.tpchLike(300, 1000, 7);
    private static final Duration STALL = Duration.ofSeconds(2);

    @TempDir
    Path shm;

    @Test
    void aFailedOpenFailsEveryNodeAndLeavesNoChannelOpen() throws Exception {
        int nodes = 2;
        PlanNode plan = SamplePlans.q3(); // several exchanges: node 1 fails to open its second
        LocalPeerExchange.Group peers = LocalPeerExchange.group(nodes, STALL);
        List<Counting> transports = new ArrayList<>();
        List<Fabric> fabrics = new ArrayList<>();
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            List<Future<Throwable>> runs = new ArrayList<>();
            for (int node = 0; node < nodes; node++) {
                Fabric fabric = Fabrics.open(
                        FabricConfig.of("shm", "opener-" + node).withOption("shm.directory", shm.toString()));
                fabrics.add(fabric);
                EndpointConfig config =
                        EndpointConfig.defaults(EndpointDesign.MEMQ_SR, 2).withStallTimeout(STALL);
                Counting transport = new Counting(
                        new DesignTransport(
                                fabric,
                                peers.member(node),
                                EndpointDesign.MEMQ_SR,
                                threads -> EndpointConfig.defaults(EndpointDesign.MEMQ_SR, threads)
                                        .withStallTimeout(STALL)
                                        .withProgress(config.progress())),
                        node == 1 ? 1 : -1);
                transports.add(transport);
                ExecutionContext context = ExecutionContext.distributed(
                                Catalog.of(TestTables.partition(TABLES, node, nodes)), 2, transport, "opener")
                        .withProgress(config.progress(), STALL);
                runs.add(pool.submit(() -> {
                    try {
                        QueryExecutor.execute(plan, context);
                        return null;
                    } catch (Throwable e) {
                        return e;
                    }
                }));
            }
            for (int node = 0; node < nodes; node++) {
                assertThat(runs.get(node).get(60, TimeUnit.SECONDS))
                        .as("node %d", node)
                        .isInstanceOf(QueryExecutionException.class);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (transports.stream().anyMatch(t -> t.closed.get() != t.opened.get())
                    && System.nanoTime() < deadline) {
                Thread.sleep(20); // an opener still inside an open closes what it opens after the query ended
            }
            for (Counting transport : transports) {
                assertThat(transport.closed.get()).isEqualTo(transport.opened.get());
            }
            assertThat(transports.get(1).opened.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            fabrics.forEach(Fabric::close);
        }
    }

    /** A transport that counts the channels it opened and closed, and fails its open number {@code failAt}. */
    private static final class Counting implements ExchangeTransport {
        private final ExchangeTransport delegate;
        private final int failAt;
        private final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        Counting(ExchangeTransport delegate, int failAt) {
            this.delegate = delegate;
            this.failAt = failAt;
        }

        @Override
        public String name() {
            return delegate.name();
        }

        @Override
        public PeerExchange peers() {
            return delegate.peers();
        }

        @Override
        public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
            if (attempts.getAndIncrement() == failAt) {
                throw new FaroException(FaroException.Category.NETWORK, "injected open failure of " + exchangeName);
            }
            ExchangeChannel channel = delegate.open(exchangeName, groups, threads);
            opened.incrementAndGet();
            return new ExchangeChannel() {
                @Override
                public boolean receives() {
                    return channel.receives();
                }

                @Override
                public ExchangeSender sender(int thread) {
                    return channel.sender(thread);
                }

                @Override
                public ExchangeReceiver receiver(int thread) {
                    return channel.receiver(thread);
                }

                @Override
                public int buffersHeldHighWater() {
                    return channel.buffersHeldHighWater();
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                    channel.close();
                }
            };
        }
    }
}
