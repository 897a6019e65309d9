package dev.faro.bench.join;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The parameters of one {@code faro bench join} run. Immutable and validated.
 *
 * @param provider the workers' fabric ({@code shm}, {@code net}, {@code ucx})
 * @param nodeCounts node counts to measure (each at most {@link #MAX_NODES})
 * @param threadCounts threads per node to measure
 * @param workloads the thesis workloads by name ({@link JoinWorkloads})
 * @param innerPerNode R tuples per node (weak scaling); S is the workload's multiple of it
 * @param bufferCounts k, private buffers per thread and remote partition, to measure (1 shows compute + transfer)
 * @param bufferBytes the size of one buffer
 * @param networkBits radix bits of the network pass
 * @param warmups untimed runs before the timed ones
 * @param runs timed runs per point; the tables show medians
 * @param bandwidthBytes bytes of the bandwidth measurement that feeds the model
 * @param sortMerge whether the sort-merge join runs too, at every point (with the largest k's radix join beside it)
 * @param bandwidthCaps emulated injection bandwidths per node to measure, bytes per second (0: the fabric's own)
 * @param outputDirectory where CSV, JSON and PNG go
 * @param scalings {@code weak} ({@code innerPerNode} R tuples on every node) and/or {@code strong} (a fixed total of
 *     {@code innerPerNode} x the largest node count R tuples, split over the nodes of each point)
 */
public record JoinBenchConfig(
        String provider,
        List<Integer> nodeCounts,
        List<Integer> threadCounts,
        List<String> workloads,
        long innerPerNode,
        List<Integer> bufferCounts,
        int bufferBytes,
        int networkBits,
        int warmups,
        int runs,
        long bandwidthBytes,
        boolean sortMerge,
        List<Long> bandwidthCaps,
        Path outputDirectory,
        List<String> scalings) {

    public static final int MAX_NODES = 16;
    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");
    public static final List<String> SCALINGS = List.of("weak", "strong");

    public JoinBenchConfig {
        Objects.requireNonNull(provider, "provider is null");
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        nodeCounts = List.copyOf(nodeCounts.stream().distinct().sorted().toList());
        threadCounts = List.copyOf(threadCounts.stream().distinct().sorted().toList());
        workloads = List.copyOf(workloads.stream().distinct().toList());
        bufferCounts = List.copyOf(bufferCounts.stream().distinct().sorted().toList());
        bandwidthCaps = List.copyOf(bandwidthCaps.stream().distinct().toList());
        scalings = List.copyOf(scalings.stream().distinct().toList());
        require(
                !scalings.isEmpty() && SCALINGS.containsAll(scalings),
                "--scaling must be weak, strong or both: " + scalings);
        require(
                !nodeCounts.isEmpty() && nodeCounts.getFirst() >= 1 && nodeCounts.getLast() <= MAX_NODES,
                "--nodes must be in [1, " + MAX_NODES + "]: " + nodeCounts);
        require(
                !threadCounts.isEmpty() && threadCounts.getFirst() >= 1 && threadCounts.getLast() <= 32,
                "--threads must be in [1, 32]: " + threadCounts);
        require(!workloads.isEmpty(), "--workloads must name at least one workload");
        for (String name : workloads) {
            JoinWorkloads.parse(name, 1, 1); // refuses unknown names
        }
        require(innerPerNode >= 1_000 && innerPerNode <= 1L << 30, "--tuples must be in [1000, 2^30]: " + innerPerNode);
        require(
                !bufferCounts.isEmpty() && bufferCounts.getFirst() >= 1 && bufferCounts.getLast() <= 16,
                "--buffers must be in [1, 16]: " + bufferCounts);
        require(
                bufferBytes >= 1024 && bufferBytes <= 16 << 20 && bufferBytes % 16 == 0,
                "--buffer-size must be a multiple of 16 in [1K, 16M]: " + bufferBytes);
        require(networkBits >= 1 && networkBits <= 14, "--bits must be in [1, 14]: " + networkBits);
        require(warmups >= 0 && warmups <= 10, "--warmups must be in [0, 10]: " + warmups);
        require(runs >= 1 && runs <= 100, "--runs must be in [1, 100]: " + runs);
        require(bandwidthBytes >= 0, "bandwidthBytes must not be negative");
        require(
                !bandwidthCaps.isEmpty() && bandwidthCaps.stream().allMatch(c -> c == 0 || c >= 1 << 20),
                "--bandwidth-cap values must be 0 (none) or at least 1M bytes/s: " + bandwidthCaps);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * The defaults: shm, 2 nodes, 1 and 2 threads, 1:1 uniform, 2 Mi tuples per node, k = 1 and 2, 64 KiB, 2^8
     * partitions, 2 warm-up and 3 timed runs.
     */
    public static JoinBenchConfig defaults() {
        return new JoinBenchConfig(
                "shm",
                List.of(2),
                List.of(1, 2),
                List.of("1:1"),
                2_000_000,
                List.of(1, 2),
                64 * 1024,
                8,
                2,
                3,
                128L << 20,
                true,
                List.of(0L),
                DEFAULT_OUTPUT_DIRECTORY,
                List.of("weak"));
    }

    /** A smoke test of seconds: 2 nodes, 1 thread, 200 k tuples, k = 2, one run. */
    public static JoinBenchConfig quick() {
        return new JoinBenchConfig(
                "shm",
                List.of(2),
                List.of(1),
                List.of("1:1"),
                200_000,
                List.of(2),
                64 * 1024,
                6,
                1,
                1,
                16L << 20,
                true,
                List.of(0L),
                DEFAULT_OUTPUT_DIRECTORY,
                List.of("weak"));
    }

    public JoinBenchConfig with(
            String newProvider,
            List<Integer> nodes,
            List<Integer> threads,
            List<String> newWorkloads,
            Long tuples,
            List<Integer> buffers,
            Integer size,
            Integer bits,
            Integer newRuns,
            List<Long> caps,
            Boolean newSortMerge,
            Path output) {
        return new JoinBenchConfig(
                newProvider != null ? newProvider : provider,
                nodes != null ? nodes : nodeCounts,
                threads != null ? threads : threadCounts,
                newWorkloads != null ? newWorkloads : workloads,
                tuples != null ? tuples : innerPerNode,
                buffers != null ? buffers : bufferCounts,
                size != null ? size : bufferBytes,
                bits != null ? bits : networkBits,
                warmups,
                newRuns != null ? newRuns : runs,
                bandwidthBytes,
                newSortMerge != null ? newSortMerge : sortMerge,
                caps != null ? caps : bandwidthCaps,
                output != null ? output : outputDirectory,
                scalings);
    }

    /** This configuration with other scalings ({@code weak}, {@code strong}). */
    public JoinBenchConfig withScalings(List<String> values) {
        return new JoinBenchConfig(
                provider,
                nodeCounts,
                threadCounts,
                workloads,
                innerPerNode,
                bufferCounts,
                bufferBytes,
                networkBits,
                warmups,
                runs,
                bandwidthBytes,
                sortMerge,
                bandwidthCaps,
                outputDirectory,
                values);
    }

    /** R tuples per node at {@code nodes} nodes under {@code scaling}. */
    long innerPerNode(String scaling, int nodes) {
        return scaling.equals("strong") ? innerPerNode * nodeCounts.getLast() / nodes : innerPerNode;
    }
}
