package dev.faro.bench.join;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.join.sortmerge.SortMergeMicroBenchmarks;
import java.util.ArrayList;
import java.util.List;

/**
 * The sort-merge join's per-thread rates for one point ({@link SortMergeMicroBenchmarks} on node 0: N x T threads at
 * once, each on one join thread's share in the join's key ranges; wall times the phase's, first thread's start to
 * last thread's end), each the best over the timed runs (the
 * thesis's convention: a micro-benchmark's peak, so that the model is a lower bound), in tuples per wall second or,
 * from {@link #ofCpu}, per CPU second of the measuring threads.
 *
 * @param scan P_scan (splitters and histogram)
 * @param partition P_partition (range scatter)
 * @param sortRun P_sort_run(l)
 * @param merge P_merge at {@code fanIn}
 * @param match P_scan of the merge-join scan
 * @param fanIn the runs one core merges
 */
record SortMergeRates(double scan, double partition, double sortRun, double merge, double match, long fanIn) {

    static ObjectNode encode(SortMergeMicroBenchmarks.Times times) {
        ObjectNode run = JsonNodeFactory.instance.objectNode();
        run.put("tuples", times.tuples());
        run.put("histogram", times.histogramNanos());
        run.put("partition", times.partitionNanos());
        run.put("sort", times.sortNanos());
        run.put("merge", times.mergeNanos());
        run.put("match", times.matchNanos());
        run.put("fanIn", times.fanIn());
        for (int c = 0; c < SortMergeMicroBenchmarks.COMPONENTS; c++) {
            run.put(COMPONENTS[c] + "Cpu", times.cpuNanos()[c]);
        }
        return run;
    }

    private static final String[] COMPONENTS = {"histogram", "partition", "sort", "merge", "match"};

    /** The best wall rates of a reply's runs. */
    static SortMergeRates of(JsonNode reply) {
        return of(reply, "");
    }

    /** The best rates per CPU second of a reply's runs (the mean measuring thread's CPU time of each component). */
    static SortMergeRates ofCpu(JsonNode reply) {
        return of(reply, "Cpu");
    }

    private static SortMergeRates of(JsonNode reply, String suffix) {
        List<JsonNode> runs = new ArrayList<>();
        reply.path("runs").forEach(runs::add);
        double[] rates = new double[COMPONENTS.length];
        for (int c = 0; c < rates.length; c++) {
            rates[c] = best(runs, COMPONENTS[c] + suffix);
        }
        return new SortMergeRates(
                rates[0],
                rates[1],
                rates[2],
                rates[3],
                rates[4],
                runs.getFirst().path("fanIn").asLong());
    }

    private static double best(List<JsonNode> runs, String component) {
        double best = Double.NaN;
        for (JsonNode run : runs) {
            long nanos = run.path(component).asLong();
            if (nanos > 0) {
                double rate = run.path("tuples").asLong() / (nanos / 1e9);
                best = Double.isNaN(best) ? rate : Math.max(best, rate);
            }
        }
        return best;
    }
}
