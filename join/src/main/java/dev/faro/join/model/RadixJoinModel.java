package dev.faro.join.model;

import dev.faro.fabric.FaroException;

/**
 * The thesis's performance model of the distributed radix hash join (§3.3.1, Eqs. 3.1–3.11): a lower bound on each
 * phase from per-thread rates measured by micro-benchmarks on the same machine and the per-node fabric bandwidth.
 * Rates are in tuples per second per thread; {@code bandwidthTuples} is the node's bandwidth in tuples per second.
 *
 * @param nodes N, machines
 * @param threads T, threads per machine
 * @param inner |R|, all nodes
 * @param outer |S|, all nodes
 * @param scanRate P_scan (histogram)
 * @param partitionRate P_partition of the network pass's fan-out
 * @param localPartitionRate P_partition of the local pass's fan-out
 * @param buildProbeRate P_build-probe: (|R_i| + |S_i|) per second of build and probe (Table 4.2's combined term)
 * @param bandwidthTuples bw (Eq. 3.2), tuples per second per node
 * @param passes d, partitioning passes (1 network + d − 1 local)
 */
public record RadixJoinModel(
        int nodes,
        int threads,
        long inner,
        long outer,
        double scanRate,
        double partitionRate,
        double localPartitionRate,
        double buildProbeRate,
        double bandwidthTuples,
        int passes) {

    public RadixJoinModel {
        FaroException.checkArgument(
                nodes >= 1 && threads >= 1, "nodes and threads must be positive: %d, %d", nodes, threads);
        FaroException.checkArgument(passes >= 1, "passes must be positive: %d", passes);
        if (!(scanRate > 0
                && partitionRate > 0
                && localPartitionRate > 0
                && buildProbeRate > 0
                && bandwidthTuples > 0)) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT, "every rate must be positive: " + this);
        }
    }

    private double cores() {
        return (double) nodes * threads;
    }

    /** Eq. 3.1: T_histogram = (|R| + |S|) / (N T P_scan), in seconds. */
    public double histogramSeconds() {
        return (inner + outer) / (cores() * scanRate);
    }

    /** Eq. 3.2: P_network = bw / T, the bandwidth share of one thread. */
    public double networkRatePerThread() {
        return bandwidthTuples / threads;
    }

    /** Eq. 3.3: network-bound iff (N − 1)/N · P_partition > P_network. */
    public boolean networkBound() {
        return NetworkPass.networkBound(nodes, partitionRate, networkRatePerThread());
    }

    /** Eqs. 3.4–3.5: the per-thread rate of the network pass (P_partition if compute-bound). */
    public double networkPassRatePerThread() {
        return NetworkPass.ratePerThread(nodes, partitionRate, networkRatePerThread());
    }

    /** Eqs. 3.6 and 3.8 (first term): the network-partitioning pass, in seconds. */
    public double networkPassSeconds() {
        return (inner + outer) / (cores() * networkPassRatePerThread());
    }

    /** Eqs. 3.7 and 3.8 (second term): the d − 1 local passes, in seconds. */
    public double localPassSeconds() {
        return (passes - 1) * (inner + outer) / (cores() * localPartitionRate);
    }

    /** Eqs. 3.9 + 3.10: build and probe, in seconds. */
    public double buildProbeSeconds() {
        return (inner + outer) / (cores() * buildProbeRate);
    }

    /** Eq. 3.11: the lower bound of the whole join, in seconds. */
    public double totalSeconds() {
        return histogramSeconds() + networkPassSeconds() + localPassSeconds() + buildProbeSeconds();
    }

    /** §3.5: the threads per node that saturate the network, bw / P_partition (at least 1). */
    public double optimalThreads() {
        return Math.max(1.0, bandwidthTuples / partitionRate);
    }
}
