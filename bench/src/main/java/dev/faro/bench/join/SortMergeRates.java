package dev.faro.bench.join;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.join.sortmerge.SortMergeMicroBenchmarks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sort-merge join's per-thread rates for one point ({@link SortMergeMicroBenchmarks} on node 0: N x T threads at once, each on one
 * node's data, a key range per thread of the point), each the median over the timed runs, in tuples per second.
 *
 * @param scan P_scan (splitters and histogram)
 * @param partition P_partition (range scatter)
 * @param sortRun P_sort_run(l)
 * @param merge P_merge at {@code fanIn}
 * @param match P_scan of the merge-join scan
 * @param fanIn the runs one core merges
 * @param cpuShare the micro-benchmark thread's CPU time over wall time ({@link CpuShare}), the median run's
 */
record SortMergeRates(
        double scan, double partition, double sortRun, double merge, double match, long fanIn, double cpuShare) {

    static ObjectNode encode(SortMergeMicroBenchmarks.Times times) {
        ObjectNode run = JsonNodeFactory.instance.objectNode();
        run.put("tuples", times.tuples());
        run.put("histogram", times.histogramNanos());
        run.put("partition", times.partitionNanos());
        run.put("sort", times.sortNanos());
        run.put("merge", times.mergeNanos());
        run.put("match", times.matchNanos());
        run.put("fanIn", times.fanIn());
        return run;
    }

    /** The medians of a reply's runs. */
    static SortMergeRates of(JsonNode reply) {
        List<JsonNode> runs = new ArrayList<>();
        reply.path("runs").forEach(runs::add);
        return new SortMergeRates(
                median(runs, "histogram"),
                median(runs, "partition"),
                median(runs, "sort"),
                median(runs, "merge"),
                median(runs, "match"),
                runs.getFirst().path("fanIn").asLong(),
                median(reply, "cpuShare"));
    }

    /** The median of a number every run of {@code reply} has, or NaN if none has it. */
    static double median(JsonNode reply, String field) {
        List<Double> values = new ArrayList<>();
        for (JsonNode run : reply.path("runs")) {
            if (run.has(field) && !run.path(field).isNull()) {
                values.add(run.path(field).asDouble());
            }
        }
        values.sort(Comparator.naturalOrder());
        return values.isEmpty() ? Double.NaN : values.get(values.size() / 2);
    }

    private static double median(List<JsonNode> runs, String component) {
        List<Double> rates = new ArrayList<>();
        for (JsonNode run : runs) {
            rates.add(run.path("tuples").asLong()
                    / (Math.max(1, run.path(component).asLong()) / 1e9));
        }
        rates.sort(Comparator.naturalOrder());
        return rates.get(rates.size() / 2);
    }
}
