package dev.faro.bench.join;

import dev.faro.join.JoinResult;
import dev.faro.join.radix.PhaseTimes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;
import java.util.stream.LongStream;

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
 * @param best every phase's shortest time over the runs (of its mean over nodes), wall and CPU each on its own: the
 *     peak rate of a micro-benchmark, the thesis's convention for the rates that make its model a lower bound
 * @param medians every phase's median time over the runs (of its mean over nodes), each field on its own: the CPU
 *     times the Table 4.2 analogue compares, less sensitive than one run's to a burst of load on a shared host
 */
record JoinPoint(
        long tuples,
        JoinResult result,
        boolean consistent,
        PhaseTimes mean,
        long imbalanceNanos,
        double bandwidthBytesPerSecond,
        int passes,
        double cpuShare,
        PhaseTimes best,
        PhaseTimes medians) {

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
                cpuShare,
                best(runs.stream().map(JoinPoint::mean).toList()),
                medians(runs.stream().map(JoinPoint::mean).toList()));
    }

    /** Each phase's median over {@code runs}, every field on its own. */
    private static PhaseTimes medians(List<PhaseTimes> runs) {
        return combine(runs, values -> {
            long[] sorted = values.sorted().toArray();
            return sorted[sorted.length / 2];
        });
    }

    /** Each phase's minimum over {@code runs}, wall and CPU times each on its own. */
    private static PhaseTimes best(List<PhaseTimes> runs) {
        return combine(runs, values -> values.min().orElse(0));
    }

    private static long maxTotal(List<PhaseTimes> nodes) {
        return nodes.stream().mapToLong(PhaseTimes::totalNanos).max().orElse(0);
    }

    private static PhaseTimes mean(List<PhaseTimes> nodes) {
        PhaseTimes mean = combine(nodes, values -> values.sum() / nodes.size());
        return new PhaseTimes(
                mean.histogramNanos(),
                mean.windowNanos(),
                mean.networkNanos(),
                mean.networkComputeNanos(),
                mean.networkPutNanos(),
                mean.networkWaitNanos(),
                mean.localPartitionNanos(),
                mean.buildProbeNanos(),
                maxTotal(nodes),
                nodes.stream().mapToLong(PhaseTimes::bytesPut).sum(),
                mean.histogramScanNanos(),
                mean.histogramCpuNanos(),
                mean.networkCpuNanos(),
                mean.networkFabricCpuNanos(),
                mean.localPartitionCpuNanos(),
                mean.buildProbeCpuNanos());
    }

    /** Every field of {@code times} reduced on its own by {@code reduce}. */
    private static PhaseTimes combine(List<PhaseTimes> times, ToLongFunction<LongStream> reduce) {
        ToLongFunction<ToLongFunction<PhaseTimes>> field =
                getter -> reduce.applyAsLong(times.stream().mapToLong(getter));
        return new PhaseTimes(
                field.applyAsLong(PhaseTimes::histogramNanos),
                field.applyAsLong(PhaseTimes::windowNanos),
                field.applyAsLong(PhaseTimes::networkNanos),
                field.applyAsLong(PhaseTimes::networkComputeNanos),
                field.applyAsLong(PhaseTimes::networkPutNanos),
                field.applyAsLong(PhaseTimes::networkWaitNanos),
                field.applyAsLong(PhaseTimes::localPartitionNanos),
                field.applyAsLong(PhaseTimes::buildProbeNanos),
                field.applyAsLong(PhaseTimes::totalNanos),
                field.applyAsLong(PhaseTimes::bytesPut),
                field.applyAsLong(PhaseTimes::histogramScanNanos),
                field.applyAsLong(PhaseTimes::histogramCpuNanos),
                field.applyAsLong(PhaseTimes::networkCpuNanos),
                field.applyAsLong(PhaseTimes::networkFabricCpuNanos),
                field.applyAsLong(PhaseTimes::localPartitionCpuNanos),
                field.applyAsLong(PhaseTimes::buildProbeCpuNanos));
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
