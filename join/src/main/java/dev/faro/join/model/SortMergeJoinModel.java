package dev.faro.join.model;

import dev.faro.fabric.FaroException;

/**
 * The thesis's performance model of the distributed sort-merge join (§3.3.2, Eqs. 3.12–3.20): a lower bound on each
 * phase from per-thread rates measured by micro-benchmarks on the same machine and the per-node fabric bandwidth.
 * Rates are in tuples per second per thread; {@code bandwidthTuples} is the node's bandwidth in tuples per second at
 * the size of one run's message.
 *
 * <p>The merge's depth (Eq. 3.17) is {@code ceil(log_fanIn(runs per core))}, at least 1: with a merge of fan-in
 * equal to the runs per core (one pass, as {@code MultiWayMerge} does) it is 1, and {@code mergeRate} must then be
 * measured at that fan-in.
 *
 * @param nodes N, machines
 * @param threads T, threads per machine
 * @param inner |R|, all nodes
 * @param outer |S|, all nodes
 * @param runTuples l, tuples per sorted run
 * @param fanIn the merge's fan-in
 * @param scanRate P_scan of the histogram (Eq. 3.1)
 * @param partitionRate P_partition of the local range-partitioning pass (Eq. 3.7)
 * @param sortRunRate P_sort_run(l)
 * @param mergeRate P_merge at {@code fanIn}
 * @param matchRate P_scan of the merge-join scan (Eq. 3.19)
 * @param bandwidthTuples bw, tuples per second per node
 */
public record SortMergeJoinModel(
        int nodes,
        int threads,
        long inner,
        long outer,
        int runTuples,
        long fanIn,
        double scanRate,
        double partitionRate,
        double sortRunRate,
        double mergeRate,
        double matchRate,
        double bandwidthTuples) {

    public SortMergeJoinModel {
        FaroException.checkArgument(
                nodes >= 1 && threads >= 1, "nodes and threads must be positive: %d, %d", nodes, threads);
        FaroException.checkArgument(
                runTuples >= 1 && fanIn >= 2, "runTuples >= 1 and fanIn >= 2: %d, %d", runTuples, fanIn);
        if (!(scanRate > 0
                && partitionRate > 0
                && sortRunRate > 0
                && mergeRate > 0
                && matchRate > 0
                && bandwidthTuples > 0)) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT, "every rate must be positive: " + this);
        }
    }

    private double cores() {
        return (double) nodes * threads;
    }

    /** Eq. 3.1: T_histogram = (|R| + |S|) / (N T P_scan). */
    public double histogramSeconds() {
        return (inner + outer) / (cores() * scanRate);
    }

    /** Eq. 3.7 with the sort-merge join's own partitioning rate: the one local range-partitioning pass. */
    public double partitionSeconds() {
        return (inner + outer) / (cores() * partitionRate);
    }

    /** Eq. 3.2: the bandwidth share of one thread. */
    public double networkRatePerThread() {
        return bandwidthTuples / threads;
    }

    /** Eq. 3.3 for the sort phase: network-bound iff (N − 1)/N · P_sort_run(l) > P_network. */
    public boolean networkBound() {
        return NetworkPass.networkBound(nodes, sortRunRate, networkRatePerThread());
    }

    /** Eqs. 3.13–3.14: the per-thread rate of sorting and shipping runs. */
    public double sortRatePerThread() {
        return NetworkPass.ratePerThread(nodes, sortRunRate, networkRatePerThread());
    }

    /** Eqs. 3.15–3.16: T_sort. */
    public double sortSeconds() {
        return (inner + outer) / (cores() * sortRatePerThread());
    }

    /** Eq. 3.12 and 3.17: the merge depth of a relation of {@code tuples}, at least 1. */
    public int mergeDepth(long tuples) {
        double runsPerCore = Math.ceil(tuples / (double) runTuples) / cores();
        if (runsPerCore <= fanIn) {
            return 1;
        }
        return (int) Math.ceil(Math.log(runsPerCore) / Math.log(fanIn) - 1e-9);
    }

    /** Eq. 3.18: T_merge = (d_R |R| + d_S |S|) / (N T P_merge). */
    public double mergeSeconds() {
        return (mergeDepth(inner) * (double) inner + mergeDepth(outer) * (double) outer) / (cores() * mergeRate);
    }

    /** Eq. 3.19: T_match = (|R| + |S|) / (N T P_scan), without materialisation. */
    public double matchSeconds() {
        return (inner + outer) / (cores() * matchRate);
    }

    /** Eq. 3.20: T_smj = T_histogram + T_partition + T_sort + T_merge + T_match. */
    public double totalSeconds() {
        return histogramSeconds() + partitionSeconds() + sortSeconds() + mergeSeconds() + matchSeconds();
    }

    /** §3.5: the threads per node that saturate the network when sorting, bw / P_sort_run (at least 1). */
    public double optimalThreads() {
        return Math.max(1.0, bandwidthTuples / sortRunRate);
    }
}
