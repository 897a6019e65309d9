package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;
import dev.faro.cluster.launch.WorkerLauncher;
import dev.faro.cluster.protocol.ClusterSecret;
import dev.faro.cluster.protocol.Json;
import dev.faro.cluster.testing.ShuffleHandler;
import dev.faro.cluster.tpch.QueryOutcome;
import dev.faro.cluster.tpch.ResultCodec;
import dev.faro.cluster.tpch.TpchSession;
import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.cluster.worker.WorkerMain;
import dev.faro.engine.exec.Catalog;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryExecutor;
import dev.faro.engine.exec.QueryResult;
import dev.faro.engine.tpch.Placement;
import dev.faro.engine.tpch.TpchGenerator;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.fabric.net.NetFabricProvider;
import dev.faro.fabric.netns.NetworkNamespaces;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.EndpointImplementation;
import dev.faro.shuffle.operator.Partitioner;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cluster runtime across "hosts": three network namespaces on one bridge ({@link NetworkNamespaces#bridged}),
 * a coordinator in this JVM listening on the root namespace's bridge address, one worker JVM per namespace started by
 * hand ({@code ip netns exec ... WorkerMain --join}) on the {@code net} fabric with {@code net.bind=auto} (each worker
 * binds to its namespace's address, the one its coordinator connection leaves from).
 *
 * <ul>
 *   <li>a repartition shuffle with every one of the eight {@link EndpointDesign}s, two threads per node: every value
 *       arrives exactly once at the node it hashes to (counts, sums and checksums per node); the UD designs over real
 *       UDP between the namespaces, exactly once as well: a clean bridge with small credit windows drops no
 *       datagram (the kernels' UDP counters, printed, agree in and out), so a NETWORK error here is a bug (the typed
 *       error for real loss is checked on {@code NetNamespacesIT}'s lossy link);</li>
 *   <li>TPC-H Q3, Q4 and Q10 at SF 0.01 with MESQ/SR give the rows one in-process node gives.</li>
 * </ul>
 * Needs root and {@code ip}; where namespaces cannot be created it says so in one loud line and is skipped, or fails
 * under {@code FARO_REQUIRE=netns}. Workers and namespaces are removed after the class, also when it fails (and a
 * crashed run's leftovers by the next run).
 */
@Requires(Requirement.NETNS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class NetNamespacesClusterIT {

    private static final int HOSTS = 3;
    private static final int ROWS = 60_000;
    private static final int THREADS = 2;
    private static final double SF = 0.01;
    private static final Duration ROUND = Duration.ofSeconds(90);

    @TempDir
    static Path directory;

    private NetworkNamespaces network;
    private Coordinator coordinator;
    private final List<Process> workers = new ArrayList<>();
    private final List<Path> workerLogs = new ArrayList<>();

    @BeforeAll
    void startClusterAcrossNamespaces() throws IOException {
        network = NetworkNamespaces.bridged(HOSTS);

        ClusterSecret secret = ClusterSecret.generate();
        Path secretFile = directory.resolve("cluster-secret");
        secret.writeFile(secretFile);
        ClusterConfig config = ClusterConfig.local(HOSTS)
                .withBind(network.rootAddress(), 0)
                .withProvider(NetFabricProvider.NAME)
                .withProviderOption(NetFabricProvider.BIND_OPTION, WorkerMain.AUTO_ADDRESS)
                .withHeartbeat(Duration.ofSeconds(1), Duration.ofSeconds(10)); // 4 JVMs on 2 busy cores
        coordinator = Coordinator.listen(config, secret);
        String join = network.rootAddress() + ":" + coordinator.address().getPort();
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String fabricSecret = HexFormat.of().formatHex(random);
        for (int host = 0; host < HOSTS; host++) {
            workers.add(startWorker(host, join, secretFile, fabricSecret));
        }
        coordinator.awaitWorkers(Duration.ofSeconds(60));
        System.out.printf(
                "[namespaces] coordinator on %s; workers in %s at %s, %s, %s%n",
                join, NetworkNamespaces.namespace("h*"), network.address(0), network.address(1), network.address(2));
    }

    /** A worker JVM inside host {@code host}'s namespace; the net secret in its environment, not in the options. */
    private Process startWorker(int host, String join, Path secretFile, String fabricSecret) throws IOException {
        List<String> command = new ArrayList<>(NetworkNamespaces.inside(network.host(host)));
        command.addAll(WorkerLauncher.joinCommand(
                join,
                secretFile,
                List.of(
                        "-Xmx" + TpchSession.workerHeapMiB(HOSTS, SF) + "m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1"),
                host));
        Path log = directory.resolve("worker-" + host + ".log");
        workerLogs.add(log);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove(ClusterSecret.ENVIRONMENT_VARIABLE);
        builder.environment().put(NetFabricProvider.SECRET_ENVIRONMENT, fabricSecret);
        return builder.start();
    }

    @AfterAll
    void stopEverything() throws Exception {
        try {
            if (coordinator != null) {
                coordinator.close(); // shuts the workers down
            }
            for (Process worker : workers) {
                if (!worker.waitFor(10, TimeUnit.SECONDS)) {
                    worker.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            for (Path log : workerLogs) {
                String text = Files.exists(log) ? Files.readString(log).strip() : "";
                if (!text.isEmpty()) {
                    System.out.println("[namespaces] " + log.getFileName() + ":\n" + text.indent(2));
                }
            }
        } finally {
            for (Process worker : workers) {
                worker.destroyForcibly(); // namespaces live on while a process is inside
            }
            if (network != null) {
                network.close();
            }
        }
    }

    @Order(0)
    @Test
    void eachWorkerBindsItsFabricToItsOwnNamespaceAddress() throws IOException {
        for (int host = 0; host < HOSTS; host++) {
            List<String> command = new ArrayList<>(NetworkNamespaces.inside(network.host(host)));
            command.addAll(List.of("ss", "-H", "-n", "-l", "-t", "-u"));
            String address = network.address(host);
            List<String> listeners = NetworkNamespaces.run(command)
                    .strip()
                    .lines()
                    .map(line -> line.split("\\s+"))
                    .map(fields ->
                            fields[0] + " " + fields[4].replace("[::ffff:", "").replace("]", ""))
                    .toList();
            assertThat(listeners)
                    .as("TCP and UDP listeners in %s (net.bind=auto)", network.host(host))
                    .isNotEmpty()
                    .allMatch(listener -> listener.contains(" " + address + ":"))
                    .anyMatch(listener -> listener.startsWith("tcp "))
                    .anyMatch(listener -> listener.startsWith("udp "));
        }
    }

    @Order(1)
    @ParameterizedTest(name = "{0}")
    @EnumSource(EndpointDesign.class)
    void everyDesignRepartitionsExactlyOnceBetweenNamespaces(EndpointDesign design) {
        long start = System.nanoTime();
        boolean datagrams = design.implementation() == EndpointImplementation.UD_TWO_SIDED;
        List<TaskReply> replies;
        try {
            replies = coordinator.runOnAll(
                    "shuffle",
                    Json.object()
                            .put("rows", ROWS)
                            .put("design", design.name())
                            .put("threads", THREADS)
                            .put("name", "ns-" + design),
                    ROUND);
        } catch (ClusterException e) {
            if (datagrams) {
                printDatagramCounters(); // did a kernel drop datagrams? (UDP in and out summed over the hosts)
            }
            throw e;
        }
        long[][] expected = expectedPerNode();
        for (int node = 0; node < HOSTS; node++) {
            JsonNode result = replies.get(node).result();
            assertThat(result.get("received").asLong())
                    .as("%s: rows node %d received", design, node)
                    .isEqualTo(expected[node][0]);
            assertThat(result.get("sum").asLong())
                    .as("%s: sum at node %d", design, node)
                    .isEqualTo(expected[node][1]);
            assertThat(result.get("checksum").asLong())
                    .as("%s: checksum at node %d", design, node)
                    .isEqualTo(expected[node][2]);
        }
        System.out.printf(
                "[namespaces] %s: %d rows over %d hosts, exactly once (%d ms)%n",
                design.paperName(),
                (long) ROWS * HOSTS,
                HOSTS,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        if (datagrams) {
            printDatagramCounters();
        }
    }

    /** Where datagrams go missing: the kernel's UDP and IP-reassembly counters in every host (cumulative). */
    private void printDatagramCounters() {
        for (int host = 0; host < HOSTS; host++) {
            System.out.printf(
                    "[namespaces]   %s kernel: %s%n",
                    network.host(host), NetworkNamespaces.datagramCounters(network.host(host)));
        }
    }

    /** What each node must receive: {count, sum, checksum} of the values that hash to it. */
    private static long[][] expectedPerNode() {
        long[][] expected = new long[HOSTS][3];
        Partitioner partitioner = Partitioner.hashLongKey(HOSTS);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(8, 8);
            for (int sender = 0; sender < HOSTS; sender++) {
                for (int i = 0; i < ROWS; i++) {
                    long v = sender * 1_000_000_000L + i;
                    value.set(ValueLayout.JAVA_LONG, 0, v);
                    long[] at = expected[partitioner.group(value, 0)];
                    at[0]++;
                    at[1] += v;
                    at[2] += ShuffleHandler.checksum(v);
                }
            }
        }
        return expected;
    }

    @Order(2)
    @Test
    void tpchQueriesAnswerLikeOneNode() {
        TpchSettings settings = new TpchSettings(SF, Placement.RANDOM, 2, EndpointDesign.MESQ_SR);
        TpchSession session = TpchSession.load(coordinator, settings, line -> {}); // closed with the coordinator
        Catalog wholeDatabase = Catalog.of(new TpchGenerator(SF, 0, 1, Placement.RANDOM, 2).generateAll(t -> {}));
        for (int query : new int[] {3, 4, 10}) {
            QueryOutcome outcome = session.run(query);
            QueryResult local =
                    QueryExecutor.execute(TpchQueries.plan(query), ExecutionContext.local(wholeDatabase, 2));
            List<List<Object>> expected = ResultCodec.decodeRows(
                    ResultCodec.encodeColumns(local.schema()), ResultCodec.encodeRows(local.schema(), local.batches()));
            assertThat(outcome.rows())
                    .as("Q%d over MESQ/SR between namespaces", query)
                    .isEqualTo(expected)
                    .isNotEmpty();
            assertThat(outcome.bytesShuffled()).as("Q%d shuffles", query).isPositive();
            System.out.printf(
                    "[namespaces] TPC-H Q%d SF %s: %d rows as one node gives, %,d bytes shuffled (%d ms)%n",
                    query,
                    SF,
                    outcome.rows().size(),
                    outcome.bytesShuffled(),
                    TimeUnit.NANOSECONDS.toMillis(outcome.elapsedNanos()));
        }
    }
}
