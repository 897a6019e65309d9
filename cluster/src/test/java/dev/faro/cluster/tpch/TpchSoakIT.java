package dev.faro.cluster.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.faro.cluster.coordinator.ClusterConfig;
import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Over a thousand queries on one local cluster (one set of worker JVMs, SF 0.01) round-robin over every shuffle
 * design and the TCP socket baseline: each worker's shared-memory mappings ({@code /proc/<pid>/maps}) and open files
 * ({@code /proc/<pid>/fd}) come back to what they were after warm-up, and never pile up in between. Before the
 * {@code shm} fabric unmapped retired files, every query left 44–102 mappings behind per worker, and a worker died at
 * {@code vm.max_map_count} after about 650 queries. Every answer also equals the first answer of its query.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchSoakIT {

    private static final double SF = 0.01;

    /** Cheap queries at SF 0.01 that still run exchanges (joins, aggregations). */
    private static final int[] QUERIES = {1, 3, 6, 12, 14, 19};

    /** Rounds over every system; 112 × 9 systems = 1,008 queries. */
    private static final int ROUNDS = 112;

    /** What a worker may hold more than after warm-up, once idle: a few files of state that lives across queries. */
    private static final long MAPPINGS_SLACK = 64;

    private static final long FILES_SLACK = 16;

    /** What a worker may map more than after warm-up at any point: a query in flight, releases not yet done. */
    private static final long MAPPINGS_IN_FLIGHT = 1_000;

    /** A shm node's directory in a mapped path: {@code .../faro-<16 hex>/}. */
    private static final Pattern SHM_NODE_FILE = Pattern.compile("/faro-[0-9a-f]{16}/");

    private TpchSession session;

    @BeforeAll
    void start() {
        TpchSettings settings = new TpchSettings(SF, Placement.RANDOM, 2, EndpointDesign.MESQ_SR);
        session = TpchSession.start(ClusterConfig.local(2).withWorkerHeap("512m"), settings, line -> {});
    }

    @AfterAll
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void mappingsAndOpenFilesOfEveryWorkerStayFlatOverAThousandQueries() {
        List<TpchSettings> systems = new ArrayList<>();
        for (EndpointDesign design : EndpointDesign.values()) {
            systems.add(session.settings().withDesign(design));
        }
        systems.add(session.settings().withTcpSockets());
        List<Long> pids = session.workerPids();
        Map<Integer, List<List<Object>>> answers = new HashMap<>();

        for (TpchSettings system : systems) { // warm-up: every system runs every query once
            for (int query : QUERIES) {
                check(query, system, session.run(query, system).rows(), answers);
            }
        }
        long[] warmMappings = new long[pids.size()];
        long[] warmFiles = new long[pids.size()];
        for (int node = 0; node < pids.size(); node++) {
            long pid = pids.get(node);
            warmMappings[node] = lowestWithin(() -> shmMappings(pid));
            warmFiles[node] = lowestWithin(() -> openFiles(pid));
        }

        long[] peakMappings = warmMappings.clone();
        int queries = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int query = QUERIES[round % QUERIES.length];
            for (TpchSettings system : systems) {
                check(query, system, session.run(query, system).rows(), answers);
                queries++;
            }
            for (int node = 0; node < pids.size(); node++) {
                long mappings = shmMappings(pids.get(node));
                peakMappings[node] = Math.max(peakMappings[node], mappings);
                assertThat(mappings)
                        .as(
                                "node %d's shm mappings after %d queries (%d after warm-up)",
                                node, queries, warmMappings[node])
                        .isLessThanOrEqualTo(warmMappings[node] + MAPPINGS_IN_FLIGHT);
            }
        }

        assertThat(queries).isGreaterThanOrEqualTo(1_000);
        for (int node = 0; node < pids.size(); node++) {
            long pid = pids.get(node);
            long mappings = awaitAtMost(
                    () -> shmMappings(pid),
                    warmMappings[node] + MAPPINGS_SLACK,
                    "node " + node + "'s shm mappings after " + queries + " queries");
            long files = awaitAtMost(
                    () -> openFiles(pid),
                    warmFiles[node] + FILES_SLACK,
                    "node " + node + "'s open files after " + queries + " queries");
            System.out.printf(
                    "TpchSoakIT node %d (pid %d): %d queries; shm mappings %d after warm-up, %d at most,"
                            + " %d at the end; open files %d after warm-up, %d at the end%n",
                    node, pid, queries, warmMappings[node], peakMappings[node], mappings, warmFiles[node], files);
        }
    }

    private static void check(
            int query, TpchSettings system, List<List<Object>> rows, Map<Integer, List<List<Object>>> answers) {
        List<List<Object>> first = answers.putIfAbsent(query, rows);
        if (first != null) {
            assertThat(rows).as("Q%d over %s", query, system.transport()).isEqualTo(first);
        }
    }

    /** The lowest value seen over a second of sampling: what is left once releases in progress have happened. */
    private static long lowestWithin(LongSupplier value) {
        long lowest = Long.MAX_VALUE;
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        do {
            lowest = Math.min(lowest, value.getAsLong());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        } while (System.nanoTime() - deadlineNs < 0);
        return lowest;
    }

    /** Waits (bounded, generous) until {@code value} is at most {@code bound}; returns it, or fails. */
    private static long awaitAtMost(LongSupplier value, long bound, String what) {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long current;
        while ((current = value.getAsLong()) > bound) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("%s: %d, more than %d", what, current, bound);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return current;
    }

    /** Lines of {@code /proc/<pid>/maps} that map a file of an shm node directory. */
    private static long shmMappings(long pid) {
        try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "maps"))) {
            return lines.filter(line -> SHM_NODE_FILE.matcher(line).find()).count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the mappings of worker pid " + pid, e);
        }
    }

    /** Entries of {@code /proc/<pid>/fd}. */
    private static long openFiles(long pid) {
        try (Stream<Path> files = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the open files of worker pid " + pid, e);
        }
    }
}
