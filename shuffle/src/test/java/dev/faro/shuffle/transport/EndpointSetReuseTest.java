package dev.faro.shuffle.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointSets;
import dev.faro.shuffle.testing.LongValues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A design's endpoints kept across exchanges and queries ({@link EndpointSets}), between two in-JVM nodes with two
 * threads each: consecutive exchanges and queries reuse one set and every value still arrives exactly once; an exchange
 * that fails does not poison the next query (its set is closed at every node, the next query opens a new one); and
 * closing the node's sets leaves no queue pair, queue or registered region behind.
 */
class EndpointSetReuseTest {

    private static final int VALUES = 20_000;
    private static final int THREADS = 2;

    private Path directory;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "endpoint-sets-test-faro"); // not faro-*: swept
    }

    @AfterEach
    void deleteDirectory() throws IOException {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR", "SEMQ_RD", "MEMQ_RD"})
    void consecutiveExchangesAndQueriesReuseOneSetExactlyOnce(String name) throws Exception {
        EndpointDesign design = EndpointDesign.valueOf(name);
        List<Node> nodes = nodes(design);
        try {
            for (int query = 0; query < 3; query++) {
                LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
                int q = query;
                onEveryNode(nodes, node -> {
                    ExchangeTransport transport = node.transport(peers);
                    for (int exchange = 0; exchange < 2; exchange++) {
                        long base = (q * 10L + exchange) * 100_000_000L;
                        try (ExchangeChannel channel =
                                transport.open("q" + q + "-x" + exchange, TransmissionGroups.repartition(2), THREADS)) {
                            long[] got = exchange(channel, node.index, base, VALUES);
                            assertThat(got)
                                    .as("query " + q + " exchange " + exchange + " at node " + node.index)
                                    .containsExactly(expected(node.index, base, VALUES));
                        }
                    }
                    return null;
                });
            }
            for (Node node : nodes) {
                assertThat(node.sets.opened())
                        .as("sets opened at node " + node.index)
                        .isEqualTo(1);
                assertThat(node.sets.reused())
                        .as("sets reused at node " + node.index)
                        .isEqualTo(5);
            }
        } finally {
            close(nodes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MESQ_SR", "SEMQ_SR", "SEMQ_RD"})
    void aFailedExchangeDoesNotPoisonTheNextQuery(String name) throws Exception {
        EndpointDesign design = EndpointDesign.valueOf(name);
        List<Node> nodes = nodes(design);
        try {
            LocalPeerExchange.Group first = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                try (ExchangeChannel channel =
                        node.transport(first).open("ok", TransmissionGroups.repartition(2), THREADS)) {
                    exchange(channel, node.index, 0, VALUES);
                }
                return null;
            });
            // node 1 sends part of its stream and gives up; node 0 sees the exchange fail
            LocalPeerExchange.Group failing = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                ExchangeChannel channel =
                        node.transport(failing).open("fails", TransmissionGroups.repartition(2), THREADS);
                if (node.index == 1) {
                    ExchangeSender sender = channel.sender(0);
                    for (long i = 0; i < 100; i++) {
                        write(sender, i);
                    }
                    sender.send(0);
                    try {
                        channel.close();
                    } catch (RuntimeException expected) {
                        // its open buffers never went out: the close protocol stalls and fails
                    }
                } else {
                    assertThatThrownBy(() -> exchange(channel, 0, 0, VALUES)).isNotNull();
                    try {
                        channel.close();
                    } catch (RuntimeException expected) {
                        // the close protocol fails too: the peer is gone
                    }
                }
                return null;
            });
            for (Node node : nodes) {
                assertThat(node.sets.freeSets())
                        .as("free sets at node " + node.index)
                        .isZero();
            }
            LocalPeerExchange.Group next = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                try (ExchangeChannel channel =
                        node.transport(next).open("next", TransmissionGroups.repartition(2), THREADS)) {
                    long base = 7 * 100_000_000L;
                    assertThat(exchange(channel, node.index, base, VALUES))
                            .containsExactly(expected(node.index, base, VALUES));
                }
                return null;
            });
            for (Node node : nodes) {
                assertThat(node.sets.opened())
                        .as("sets opened at node " + node.index)
                        .isEqualTo(2);
            }
        } finally {
            close(nodes);
        }
    }

    /**
     * Two queries at once on the same nodes, whose opens may reach the nodes in different orders: each takes a set
     * that is free at both nodes, or a new one with an id of its own, so both stay exactly-once.
     */
    @Test
    void concurrentQueriesNeverShareASet() throws Exception {
        List<Node> nodes = nodes(EndpointDesign.MEMQ_SR);
        try {
            for (int round = 0; round < 4; round++) {
                List<CompletableFuture<Void>> queries = new ArrayList<>();
                for (int query = 0; query < 2; query++) {
                    LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
                    long base = (round * 2L + query) * 100_000_000L;
                    String name = "r" + round + "-q" + query;
                    queries.add(CompletableFuture.runAsync(
                            () -> {
                                try {
                                    onEveryNode(nodes, node -> {
                                        try (ExchangeChannel channel = node.transport(peers)
                                                .open(name, TransmissionGroups.repartition(2), THREADS)) {
                                            assertThat(exchange(channel, node.index, base, VALUES))
                                                    .as(name + " at node " + node.index)
                                                    .containsExactly(expected(node.index, base, VALUES));
                                        }
                                        return null;
                                    });
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            },
                            EndpointSetReuseTest::start));
                }
                for (CompletableFuture<Void> query : queries) {
                    query.get(180, TimeUnit.SECONDS);
                }
            }
            for (Node node : nodes) {
                assertThat(node.sets.reused())
                        .as("sets reused at node " + node.index)
                        .isPositive();
            }
        } finally {
            close(nodes);
        }
    }

    @Test
    void aNodeKeepsAtMostSixteenFreeSetsOfAShape() throws Exception {
        int open = EndpointSets.MAX_FREE_PER_SHAPE + 2;
        List<Node> nodes = nodes(EndpointDesign.SEMQ_SR);
        try {
            LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                ExchangeTransport transport = node.transport(peers);
                List<ExchangeChannel> channels = new ArrayList<>();
                for (int exchange = 0; exchange < open; exchange++) {
                    channels.add(transport.open("x" + exchange, TransmissionGroups.repartition(2), THREADS));
                }
                for (ExchangeChannel channel : channels) {
                    exchange(channel, node.index, 0, 10);
                    channel.close();
                }
                return null;
            });
            for (Node node : nodes) {
                assertThat(node.sets.opened()).isEqualTo(open);
                assertThat(node.sets.freeSets()).isEqualTo(EndpointSets.MAX_FREE_PER_SHAPE);
            }
            // the evicted sets are named at the next open; the kept ones still serve
            LocalPeerExchange.Group next = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                try (ExchangeChannel channel =
                        node.transport(next).open("next", TransmissionGroups.repartition(2), THREADS)) {
                    assertThat(exchange(channel, node.index, 0, VALUES))
                            .containsExactly(expected(node.index, 0, VALUES));
                }
                return null;
            });
            for (Node node : nodes) {
                assertThat(node.sets.opened()).isEqualTo(open);
            }
        } finally {
            close(nodes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MESQ_SR", "MEMQ_SR"})
    void closingTheNodesSetsLeavesNoFabricObjectBehind(String name) throws Exception {
        List<Node> nodes = nodes(EndpointDesign.valueOf(name));
        try {
            LocalPeerExchange.Group peers = LocalPeerExchange.group(2, Duration.ofSeconds(30));
            onEveryNode(nodes, node -> {
                try (ExchangeChannel channel =
                        node.transport(peers).open("x", TransmissionGroups.repartition(2), THREADS)) {
                    exchange(channel, node.index, 0, VALUES);
                }
                return null;
            });
            assertThat(fabricObjects()).as("objects kept for the next exchange").isNotEmpty();
            for (Node node : nodes) {
                node.sets.close();
            }
            assertThat(fabricObjects())
                    .as("queue pairs, queues and regions left")
                    .isEmpty();
        } finally {
            close(nodes);
        }
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("left under " + directory).isEmpty();
        }
    }

    /** Files of queue pairs, completion queues and registered regions (every file but the nodes' own). */
    private List<Path> fabricObjects() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile)
                    .filter(path -> !path.getFileName().toString().equals("node"))
                    .toList();
        }
    }

    private static long[] expected(int node, long base, int values) {
        long count = 0;
        long sum = 0;
        for (int sender = 0; sender < 2; sender++) {
            for (int thread = 0; thread < THREADS; thread++) {
                for (long i = 0; i < values; i++) {
                    long value = base + sender * 1_000_000L + thread * 100_000L + i;
                    if (value % 2 == node) {
                        count++;
                        sum += value;
                    }
                }
            }
        }
        return new long[] {count, sum};
    }

    /** Every thread sends its values and drains its receiver; returns the count and sum this node received. */
    private static long[] exchange(ExchangeChannel channel, int node, long base, int values) throws Exception {
        List<CompletableFuture<long[]>> received = new ArrayList<>();
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (int thread = 0; thread < THREADS; thread++) {
            int t = thread;
            received.add(CompletableFuture.supplyAsync(
                    () -> LongValues.drain(channel.receiver(t)), EndpointSetReuseTest::start));
            sent.add(CompletableFuture.runAsync(
                    () -> {
                        ExchangeSender sender = channel.sender(t);
                        for (long i = 0; i < values; i++) {
                            write(sender, base + node * 1_000_000L + t * 100_000L + i);
                        }
                        sender.finish();
                    },
                    EndpointSetReuseTest::start));
        }
        long count = 0;
        long sum = 0;
        for (int thread = 0; thread < THREADS; thread++) {
            sent.get(thread).get(60, TimeUnit.SECONDS);
            long[] got = received.get(thread).get(60, TimeUnit.SECONDS);
            count += got[0];
            sum += got[1];
        }
        return new long[] {count, sum};
    }

    private static void write(ExchangeSender sender, long value) {
        LongValues.write(sender, (int) (value % 2), value);
    }

    private static void start(Runnable runnable) {
        Thread.ofPlatform().daemon().start(runnable);
    }

    private interface NodeWork {
        Void run(Node node) throws Exception;
    }

    private static void onEveryNode(List<Node> nodes, NodeWork work) throws Exception {
        List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (Node node : nodes) {
            runs.add(CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return work.run(node);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    },
                    EndpointSetReuseTest::start));
        }
        for (CompletableFuture<Void> run : runs) {
            run.get(120, TimeUnit.SECONDS);
        }
    }

    private List<Node> nodes(EndpointDesign design) {
        List<Node> nodes = new ArrayList<>();
        for (int node = 0; node < 2; node++) {
            Fabric fabric = Fabrics.open(FabricConfig.of("shm", "sets-" + design + "-" + node)
                    .withOption("shm.directory", directory.toString()));
            ProgressSignal progress = new ProgressSignal();
            nodes.add(new Node(
                    node,
                    fabric,
                    design,
                    threads -> EndpointConfig.defaults(design, threads)
                            .withStallTimeout(Duration.ofSeconds(3))
                            .withProgress(progress)));
        }
        return nodes;
    }

    private static void close(List<Node> nodes) {
        for (Node node : nodes) {
            node.sets.close();
            node.fabric.close();
        }
    }

    private static final class Node {
        final int index;
        final Fabric fabric;
        final EndpointDesign design;
        final Function<Integer, EndpointConfig> config;
        final EndpointSets sets = new EndpointSets();

        Node(int index, Fabric fabric, EndpointDesign design, Function<Integer, EndpointConfig> config) {
            this.index = index;
            this.fabric = fabric;
            this.design = design;
            this.config = config;
        }

        /** The transport of one query at this node, over the node's sets. */
        ExchangeTransport transport(LocalPeerExchange.Group peers) {
            return new DesignTransport(fabric, peers.member(index), design, config::apply, sets);
        }
    }
}
