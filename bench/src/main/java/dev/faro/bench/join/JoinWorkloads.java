package dev.faro.bench.join;

import dev.faro.join.radix.PartitionAssignment;
import dev.faro.join.workload.JoinWorkload;
import java.util.List;

/**
 * The workloads of {@code faro bench join} by name (thesis §3.4.1, §3.4.5, Table 4.1): {@code 1:1}, {@code 1:2},
 * {@code 1:4}, {@code 1:8} (uniform unique inner keys, N matches per inner key), {@code sel0.5} (1:2, half of the
 * outer tuples without a match), {@code zipf1.05} and {@code zipf1.20} (1:4, Zipf outer keys, partitions assigned
 * sorted by size, as the thesis does for skew).
 */
final class JoinWorkloads {

    static final List<String> NAMES = List.of("1:1", "1:2", "1:4", "1:8", "sel0.5", "zipf1.05", "zipf1.20");

    /** The seed of every generated relation, so runs are reproducible. */
    static final long SEED = 42;

    private JoinWorkloads() {}

    /**
     * The workload {@code name} with {@code innerPerNode} R tuples per node.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    static JoinWorkload parse(String name, long innerPerNode, int nodes) {
        return switch (name) {
            case "1:1" -> JoinWorkload.uniform(innerPerNode, 1, SEED);
            case "1:2" -> JoinWorkload.uniform(innerPerNode, 2, SEED);
            case "1:4" -> JoinWorkload.uniform(innerPerNode, 4, SEED);
            case "1:8" -> JoinWorkload.uniform(innerPerNode, 8, SEED);
            case "sel0.5" -> new JoinWorkload(innerPerNode, 2, 0.5, 0, SEED);
            case "zipf1.05" -> new JoinWorkload(innerPerNode, 4, 1.0, 1.05, SEED);
            case "zipf1.20" -> new JoinWorkload(innerPerNode, 4, 1.0, 1.20, SEED);
            default ->
                throw new IllegalArgumentException(
                        "unknown workload '" + name + "'; known: " + String.join(", ", NAMES));
        };
    }

    /** The assignment the thesis uses for the workload: sorted for skew, else round robin. */
    static PartitionAssignment assignment(String name) {
        return name.startsWith("zipf") ? PartitionAssignment.SORTED_ROUND_ROBIN : PartitionAssignment.ROUND_ROBIN;
    }

    /** The uniform workload a skewed one is compared with (same sizes), or null. */
    static String uniformTwin(String name) {
        return name.startsWith("zipf") ? "1:4" : null;
    }
}
