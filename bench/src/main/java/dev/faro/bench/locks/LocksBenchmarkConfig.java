package dev.faro.bench.locks;

import dev.faro.txn.lock.DeadlockPolicy;
import dev.faro.txn.tpcc.TpccIsolation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What {@code faro bench locks} measures.
 *
 * @param experiments which experiments run, of {@link #EXPERIMENTS}
 * @param nodes the node count of every experiment but {@code nodes}, which sweeps 1 to this
 * @param serversPerNode lock servers per node
 * @param agentsPerNode transaction agents per node
 * @param remotePercents the synthetic workload's remote probabilities, in percent
 * @param provider the workers' fabric
 * @param policy deadlock handling
 * @param lockTimeoutMs the bounded wait
 * @param warmupMs load before counting, per point
 * @param durationMs counted load per point
 * @param runs measurements per point (the table shows the median)
 * @param outputDirectory where CSV, JSON and PNG go
 * @param pinned local workers (no {@code --listen}) pin each node's threads to its share of the host's CPUs ({@link
 *     LocksCase#sharedHost()}); false: the operating system places them
 */
public record LocksBenchmarkConfig(
        List<String> experiments,
        int nodes,
        int serversPerNode,
        int agentsPerNode,
        List<Double> remotePercents,
        String provider,
        DeadlockPolicy policy,
        long lockTimeoutMs,
        long warmupMs,
        long durationMs,
        int runs,
        Path outputDirectory,
        boolean pinned) {

    /** The experiments run by default, in the order they run. */
    public static final List<String> EXPERIMENTS = List.of("remote", "isolation", "nodes", "roles");

    /**
     * Experiments run only when named: {@code contention}, the synthetic workload against its hot-lock probability
     * ({@link #HOT_PERCENTS}), whose breakdown shows time in the waiting groups.
     */
    public static final List<String> NAMED_ONLY_EXPERIMENTS = List.of("contention");

    /** The hot-lock probabilities of the contention experiment, in percent. */
    public static final List<Double> HOT_PERCENTS = List.of(0.0, 10.0, 25.0, 50.0);

    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");

    public LocksBenchmarkConfig {
        experiments = List.copyOf(experiments);
        remotePercents = List.copyOf(remotePercents);
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(policy, "policy is null");
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        for (String experiment : experiments) {
            if (!EXPERIMENTS.contains(experiment) && !NAMED_ONLY_EXPERIMENTS.contains(experiment)) {
                throw new IllegalArgumentException("unknown experiment '" + experiment + "'; known: " + EXPERIMENTS
                        + ", and " + String.join(", ", NAMED_ONLY_EXPERIMENTS) + " when named");
            }
        }
        if (experiments.isEmpty() || Set.copyOf(experiments).size() != experiments.size()) {
            throw new IllegalArgumentException("name each experiment once: " + experiments);
        }
        if (nodes < 1 || nodes > 16) {
            throw new IllegalArgumentException("--nodes must be in [1, 16]: " + nodes);
        }
        if (serversPerNode < 1 || agentsPerNode < 1 || serversPerNode + agentsPerNode > 64) {
            throw new IllegalArgumentException("--servers and --agents must be at least 1 and at most 64 together: "
                    + serversPerNode + " + " + agentsPerNode);
        }
        for (double percent : remotePercents) {
            if (!(percent >= 0 && percent <= 100)) {
                throw new IllegalArgumentException("--remote values must be in [0, 100]: " + percent);
            }
            if (percent > 0 && nodes < 2) {
                throw new IllegalArgumentException("remote locks need --nodes 2 or more");
            }
        }
        if (remotePercents.isEmpty()) {
            throw new IllegalArgumentException("--remote needs at least one value");
        }
        if (lockTimeoutMs < 1 || warmupMs < 0 || durationMs < 10 || runs < 1) {
            throw new IllegalArgumentException("bad timing: lock timeout " + lockTimeoutMs + " ms, warm-up " + warmupMs
                    + " ms, duration " + durationMs + " ms, runs " + runs);
        }
    }

    /** Every experiment, 2 nodes of 1 server and 2 agents, Table 5.1's remote ratios, 2 s per point, 3 runs. */
    public static LocksBenchmarkConfig defaults() {
        return new LocksBenchmarkConfig(
                EXPERIMENTS,
                2,
                1,
                2,
                ThesisNumbers.REMOTE_PERCENT,
                "shm",
                DeadlockPolicy.TIMEOUT,
                100,
                500,
                2_000,
                3,
                DEFAULT_OUTPUT_DIRECTORY,
                true);
    }

    /** A smoke test: 0, 10 and 50 % remote, 0.3 s per point, one run. */
    public static LocksBenchmarkConfig quick() {
        return defaults().withTiming(100, 300, 1).withRemote(List.of(0.0, 10.0, 50.0));
    }

    LocksBenchmarkConfig with(List<Double> remote, long warmup, long duration, int runCount) {
        return new LocksBenchmarkConfig(
                experiments,
                nodes,
                serversPerNode,
                agentsPerNode,
                remote,
                provider,
                policy,
                lockTimeoutMs,
                warmup,
                duration,
                runCount,
                outputDirectory,
                pinned);
    }

    public LocksBenchmarkConfig withRemote(List<Double> values) {
        return with(values, warmupMs, durationMs, runs);
    }

    public LocksBenchmarkConfig withExperiments(List<String> values) {
        return new LocksBenchmarkConfig(
                values,
                nodes,
                serversPerNode,
                agentsPerNode,
                remotePercents,
                provider,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                outputDirectory,
                pinned);
    }

    public LocksBenchmarkConfig withLayout(int nodeCount, int servers, int agents) {
        return new LocksBenchmarkConfig(
                experiments,
                nodeCount,
                servers,
                agents,
                remotePercents,
                provider,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                outputDirectory,
                pinned);
    }

    public LocksBenchmarkConfig withProvider(String value) {
        return new LocksBenchmarkConfig(
                experiments,
                nodes,
                serversPerNode,
                agentsPerNode,
                remotePercents,
                value,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                outputDirectory,
                pinned);
    }

    public LocksBenchmarkConfig withPolicy(DeadlockPolicy value) {
        return new LocksBenchmarkConfig(
                experiments,
                nodes,
                serversPerNode,
                agentsPerNode,
                remotePercents,
                provider,
                value,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                outputDirectory,
                pinned);
    }

    public LocksBenchmarkConfig withTiming(long warmup, long duration, int runCount) {
        return with(remotePercents, warmup, duration, runCount);
    }

    public LocksBenchmarkConfig withOutputDirectory(Path value) {
        return new LocksBenchmarkConfig(
                experiments,
                nodes,
                serversPerNode,
                agentsPerNode,
                remotePercents,
                provider,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                value,
                pinned);
    }

    /** The same configuration with local nodes pinned to their share of the CPUs ({@code value}) or not. */
    public LocksBenchmarkConfig withPinned(boolean value) {
        return new LocksBenchmarkConfig(
                experiments,
                nodes,
                serversPerNode,
                agentsPerNode,
                remotePercents,
                provider,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                runs,
                outputDirectory,
                value);
    }

    /** The base case every experiment varies. */
    LocksCase baseCase() {
        return new LocksCase(
                nodes,
                serversPerNode,
                agentsPerNode,
                LocksCase.SYNTHETIC,
                0,
                10,
                0,
                TpccIsolation.SERIALIZABLE,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                (int) Math.min(2_000, Math.max(100, durationMs)), // short points (smoke tests) calibrate briefly
                false);
    }
}
