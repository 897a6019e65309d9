package dev.faro.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.transport.DesignTransport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An exchange between two nodes in this JVM (shm fabric) where node 0 has ended its stream and waits for node 1:
 * when node 1 never sends and nothing progresses anywhere, node 0 fails within the stall timeout with a message
 * naming the exchange, the node and the node it waits for; when node 1 is still busy (its progress relayed into
 * node 0's signal, as the heartbeats do) for several stall timeouts before it ends its stream, nothing fails.
 */
class ShuffleExchangeStallTest {

    private static final Duration STALL_TIMEOUT = Duration.ofSeconds(1);
    private static final Schema SCHEMA = Schema.of(new Column("k", DataType.BIGINT));

    private Path directory;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-stall-test");
    }

    @AfterEach
    void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @Test
    void anExchangeWhereNothingMovesFailsNamingTheExchangeAndWhomItWaitsFor() throws Exception {
        CountDownLatch node0Done = new CountDownLatch(1);
        Throwable[] failure = new Throwable[1];
        run("stalled", (node, exchange) -> {
            if (node == 0) {
                exchange.sinkFactory().complete(1);
                Operator source = exchange.sourceFactory().create(0);
                failure[0] = catchThrowable(() -> nextOutput(source));
                node0Done.countDown();
            } else {
                await(node0Done); // alive, but sends nothing and never ends its stream
                exchange.sinkFactory().complete(1);
            }
        });
        assertThat(failure[0]).isInstanceOf(FaroException.class);
        assertThat(failure[0].getMessage())
                .startsWith("exchange 3 (REPARTITION, shuffle stalled-x3, MESQ/SR) at node 0: ")
                .contains("no data arrived for 1 s with no progress anywhere in the query")
                .contains("waiting for node 1");
    }

    @Test
    void aPeerStillBusyForSeveralStallTimeoutsIsNoStall() throws Exception {
        ProgressSignal[] signals = {new ProgressSignal(), new ProgressSignal()};
        run("busy", signals, (node, exchange) -> {
            if (node == 0) {
                exchange.sinkFactory().complete(1);
                Operator source = exchange.sourceFactory().create(0);
                assertThat(nextOutput(source)).isNull();
                assertThat(source.isFinished()).isTrue();
            } else {
                // node 1 computes for three stall timeouts; the heartbeat relays its progress to node 0
                long epoch = 0;
                long until = System.nanoTime() + STALL_TIMEOUT.multipliedBy(3).toNanos();
                while (System.nanoTime() - until < 0) {
                    signals[1].advance();
                    signals[0].remoteAdvanced(++epoch);
                    sleep(100);
                }
                exchange.sinkFactory().complete(1);
                Operator source = exchange.sourceFactory().create(0);
                assertThat(nextOutput(source)).isNull();
            }
        });
    }

    private void run(String queryId, BiConsumer<Integer, ShuffleExchange> body) throws Exception {
        run(queryId, new ProgressSignal[] {new ProgressSignal(), new ProgressSignal()}, body);
    }

    private void run(String queryId, ProgressSignal[] signals, BiConsumer<Integer, ShuffleExchange> body)
            throws Exception {
        LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
        List<CompletableFuture<Void>> nodes = Stream.of(0, 1)
                .map(node -> CompletableFuture.runAsync(
                        () -> {
                            FabricConfig fabricConfig = FabricConfig.of("shm", queryId + "-node-" + node)
                                    .withOption("shm.directory", directory.toString());
                            try (Fabric fabric = Fabrics.open(fabricConfig)) {
                                DesignTransport transport = new DesignTransport(
                                        fabric,
                                        peers.member(node),
                                        EndpointDesign.MESQ_SR,
                                        threads -> EndpointConfig.defaults(EndpointDesign.MESQ_SR, threads)
                                                .withStallTimeout(STALL_TIMEOUT)
                                                .withProgress(signals[node]));
                                ExecutionContext context = ExecutionContext.distributed(
                                                Catalog.of(List.of()), 1, transport, queryId)
                                        .withProgress(signals[node], STALL_TIMEOUT);
                                ShuffleExchange exchange = new ShuffleExchange(
                                        3,
                                        ExchangeKind.REPARTITION,
                                        SCHEMA,
                                        new boolean[] {false},
                                        List.of("k"),
                                        context);
                                exchange.open();
                                try {
                                    body.accept(node, exchange);
                                } finally {
                                    try {
                                        exchange.close();
                                    } catch (RuntimeException e) {
                                        // closing a stalled exchange fails too (node 1 never confirms node 0's end):
                                        // expected
                                    }
                                }
                            }
                        },
                        runnable -> Thread.ofPlatform().daemon().start(runnable)))
                .toList();
        for (CompletableFuture<Void> node : nodes) {
            node.get(120, TimeUnit.SECONDS);
        }
    }

    /** What a driver does with a source: waits while it is blocked (it yields), then takes its output. */
    private static Batch nextOutput(Operator source) {
        while (true) {
            source.isBlocked().toCompletableFuture().join();
            if (source.isBlocked() != Operator.NOT_BLOCKED) {
                continue;
            }
            Batch batch = source.getOutput();
            if (batch != null || source.isFinished()) {
                return batch;
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(60, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
