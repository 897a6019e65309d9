package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.EndpointSharing;
import java.util.ArrayList;
import java.util.List;

/**
 * E5 (TODS19 §7.1.5, Fig. 20): repartition throughput against the number of queue pairs each node opens per side,
 * which grows with the endpoints (SE: one per operator, ME: one per thread, swept over 1, 2 and 4 threads) and, for
 * the MQ designs, with the node count (one queue pair per peer). x is queue pairs per node and side.
 */
public final class QueuePairExperiment extends ExperimentDriver {

    @Override
    public String name() {
        return "e5";
    }

    @Override
    public String title() {
        return "throughput vs queue pairs per node (endpoints x peers), threads 1-4 (Fig. 20)";
    }

    @Override
    public String paperFinding() {
        return "MESQ/SR reaches higher throughput with fewer queue pairs; MQ designs need queue pairs in proportion to"
                + " the cluster size, SQ designs do not";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2)) : ExperimentSettings.defaults(List.of(3));
    }

    static List<Integer> threadCounts(ExperimentSettings settings) {
        return settings.quick() ? List.of(1, 2) : List.of(1, 2, 4);
    }

    /** Queue pairs per node and side: one per endpoint (SQ) or one per endpoint and peer (MQ). */
    static int queuePairs(EndpointDesign design, int threads, int nodes) {
        int endpoints = design.sharing() == EndpointSharing.SHARED ? 1 : threads;
        return design.implementation().needsDatagrams() ? endpoints : endpoints * nodes;
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        int nodes = settings.smallestNodeCount();
        List<Trial> trials = new ArrayList<>();
        for (int threads : threadCounts(settings)) {
            for (EndpointDesign design : EndpointDesign.values()) {
                ShuffleCase shuffleCase =
                        shuffleCase(design, ShufflePattern.REPARTITION, nodes, settings.withThreads(threads));
                int queuePairs = queuePairs(design, threads, nodes);
                trials.add(Trial.of(
                        design.paperName(),
                        queuePairs,
                        queuePairs + " (" + threads + " thr)",
                        "threads=" + threads,
                        shuffleCase));
            }
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E5: repartition throughput per node vs queue pairs per node, " + settings.smallestNodeCount()
                        + " nodes",
                "queue pairs per node and side",
                true,
                r -> true));
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("threads", "vs MESQ/SR");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of(
                Integer.toString(result.trial().shuffleCase().threads()),
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().group().equals(result.trial().group())
                                        && r.trial().series().equals("MESQ/SR"))));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (String group :
                results.stream().map(r -> r.trial().group()).distinct().toList()) {
            results.stream()
                    .filter(r -> r.succeeded() && r.trial().group().equals(group))
                    .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()))
                    .ifPresent(best -> findings.add(format(
                            "%s: best %s with %s queue pairs",
                            group, best.trial().series(), best.trial().xLabel())));
        }
        return findings;
    }
}
