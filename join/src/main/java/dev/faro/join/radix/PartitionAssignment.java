package dev.faro.join.radix;

/**
 * Which node owns which network partition (thesis §3.2.1 step 4): statically round robin, or, for skew, partitions
 * sorted by size descending and then dealt round robin so that the largest never share a node (§3.4.5).
 */
public enum PartitionAssignment {
    ROUND_ROBIN,
    SORTED_ROUND_ROBIN;

    /** The owner of every partition, from the global histograms (inner and outer counts by partition). */
    public int[] owners(long[] innerCounts, long[] outerCounts, int nodes) {
        int partitions = innerCounts.length;
        int[] owners = new int[partitions];
        if (this == ROUND_ROBIN) {
            for (int p = 0; p < partitions; p++) {
                owners[p] = p % nodes;
            }
            return owners;
        }
        Integer[] order = new Integer[partitions];
        for (int p = 0; p < partitions; p++) {
            order[p] = p;
        }
        java.util.Arrays.sort(order, (a, b) -> {
            int bySize = Long.compare(innerCounts[b] + outerCounts[b], innerCounts[a] + outerCounts[a]);
            return bySize != 0 ? bySize : Integer.compare(a, b);
        });
        for (int i = 0; i < partitions; i++) {
            owners[order[i]] = i % nodes;
        }
        return owners;
    }

    /** The command-line name. */
    public String cliName() {
        return this == ROUND_ROBIN ? "round-robin" : "sorted";
    }
}
