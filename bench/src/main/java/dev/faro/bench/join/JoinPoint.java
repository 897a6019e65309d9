package dev.faro.bench.join;

import dev.faro.join.JoinResult;
import dev.faro.join.radix.PhaseTimes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The measured outcome of one case: every timed run's phase times by node, reduced to the median run (by the slowest
 * node's total, the join's time). Phases are means over nodes, as in the thesis; the imbalance is the thesis's
 * {@code max(total) - sum of mean phases}.
 *
 * @param tuples |R| + |S| over all nodes
 * @param result the join's result (the same at every node and run, or {@link #consistent} is false)
 * @param consistent whether every node of every run reported the same result
 * @param mean the median run's phases, averaged over its nodes, with the slowest node's total
 * @param imbalanceNanos the median run's imbalance
 * @param bandwidthBytesPerSecond the fabric bandwidth measured before the runs (0 when not measured)
 * @param passes d, the partitioning passes (2 with a local pass, else 1)
 * @param cpuShare the median run's CPU time over wall time of a one-thread run ({@link CpuShare}), else NaN
 */
record JoinPoint(
        long tuples,
        JoinResult result,
        boolean consistent,
        PhaseTimes mean,
        long imbalanceNanos,
        double bandwidthBytesPerSecond,
        int passes,
        double cpuShare) {

    /** Reduces {@code runs.get(run).get(node)} and the per-run results to the median run. */
    static JoinPoint of(
            long tuples,
            List<List<PhaseTimes>> runs,
            List<JoinResult> results,
            double bandwidth,
            int passes,
            double cpuShare) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> maxTotal(runs.get(i))));
        List<PhaseTimes> median = runs.get(order.get(order.size() / 2));
        boolean consistent = results.stream().distinct().count() == 1;
        return new JoinPoint(
                tuples,
                results.getFirst(),
                consistent,
                mean(median),
                PhaseTimes.imbalanceNanos(median),
                bandwidth,
                passes,
                cpuShare);
    }

    private static long maxTotal(List<PhaseTimes> nodes) {
        return nodes.stream().mapToLong(PhaseTimes::totalNanos).max().orElse(0);
    }

    private static PhaseTimes mean(List<PhaseTimes> nodes) {
        int n = nodes.size();
        return new PhaseTimes(
                nodes.stream().mapToLong(PhaseTimes::histogramNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::windowNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::networkNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::networkComputeNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::networkPutNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::networkWaitNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::localPartitionNanos).sum() / n,
                nodes.stream().mapToLong(PhaseTimes::buildProbeNanos).sum() / n,
                maxTotal(nodes),
                nodes.stream().mapToLong(PhaseTimes::bytesPut).sum());
    }

    /** The join's time: the slowest node's total, in seconds. */
    double seconds() {
        return mean.totalNanos() / 1e9;
    }

    /** Tuples (|R| + |S|) per second. */
    double tuplesPerSecond() {
        return tuples / seconds();
    }
}
