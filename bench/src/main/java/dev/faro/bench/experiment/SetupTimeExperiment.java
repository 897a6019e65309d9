package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;

/**
 * E6 (TODS19 §7.1.6, Fig. 21): the time to set a shuffle up and tear it down (queue pairs, registration, address
 * exchange, connection; then close and deregistration), the slowest node's, against the node count, for the eight
 * designs and the TCP baseline (connect and accept). The shuffles move almost no data; the numbers come from the
 * same worker processes as the throughput experiments. The address exchange goes through the coordinator. The "own
 * open ms" column and {@code e6-own.png} show the slowest node's own part of the open alone (queue pairs,
 * registration, connection: what the paper's Fig. 21 counts), without the exchange and the close, both of which wait
 * for the other nodes and so, on one host, mostly measure how long the other JVMs take to get there.
 */
public final class SetupTimeExperiment extends ExperimentDriver {

    @Override
    public String name() {
        return "e6";
    }

    @Override
    public String title() {
        return "setup + teardown time vs node count, eight designs + TCP (Fig. 21)";
    }

    @Override
    public String paperFinding() {
        return "time follows the number of queue pairs: ME slower than SE, MQ grows linearly with the cluster, SQ"
                + " stays flat (MESQ/SR about 40 ms at any size)";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        ExperimentSettings base = quick
                ? ExperimentSettings.quick(List.of(2, 3))
                : ExperimentSettings.defaults(List.of(2, 3, 4)).withRuns(5);
        return base.withTuplesPerThread(1024).withMinimumSeconds(0);
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        List<Trial> trials = new ArrayList<>();
        for (int nodes : settings.nodeCounts()) {
            Trial last = null;
            for (EndpointDesign design : EndpointDesign.values()) {
                ShuffleCase shuffleCase = shuffleCase(design, ShufflePattern.REPARTITION, nodes, settings);
                last = Trial.of(design.paperName(), nodes, Integer.toString(nodes), "nodes=" + nodes, shuffleCase);
                trials.add(last);
            }
            trials.add(last.asTcp());
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(
                new Plot(
                        "",
                        "E6: setup + teardown time of a shuffle (slowest node, median of " + settings.runs() + ")",
                        "nodes",
                        false,
                        "milliseconds",
                        r -> true,
                        TrialResult::setupMillis),
                new Plot(
                        "own",
                        "E6: open without the address exchange (slowest node, median of " + settings.runs() + ")",
                        "nodes",
                        false,
                        "milliseconds",
                        r -> true,
                        TrialResult::ownOpenMillis));
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("own open ms", "QPs per node");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        ShuffleCase shuffleCase = result.trial().shuffleCase();
        String own = Double.isFinite(result.ownOpenMillis()) ? format("%.1f", result.ownOpenMillis()) : "";
        if (shuffleCase.isTcp()) {
            return List.of(own, shuffleCase.threads() * shuffleCase.nodes() + " conn");
        }
        return List.of(
                own,
                Integer.toString(2
                        * QueuePairExperiment.queuePairs(
                                shuffleCase.design(), shuffleCase.threads(), shuffleCase.nodes())));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        List<Integer> nodes = results.stream()
                .map(r -> r.trial().shuffleCase().nodes())
                .distinct()
                .sorted()
                .toList();
        if (nodes.size() < 2) {
            return findings;
        }
        int smallest = nodes.get(0);
        int largest = nodes.get(nodes.size() - 1);
        for (String series :
                results.stream().map(r -> r.trial().series()).distinct().toList()) {
            var small = find(
                    results, r -> r.trial().series().equals(series) && r.trial().x() == smallest);
            var large = find(
                    results, r -> r.trial().series().equals(series) && r.trial().x() == largest);
            if (small.isPresent() && large.isPresent()) {
                findings.add(format(
                        "%s: %.1f ms at %d nodes -> %.1f ms at %d nodes (x%.2f); own open %.1f ->" + " %.1f ms (x%.2f)",
                        series,
                        small.get().setupMillis(),
                        smallest,
                        large.get().setupMillis(),
                        largest,
                        large.get().setupMillis() / small.get().setupMillis(),
                        small.get().ownOpenMillis(),
                        large.get().ownOpenMillis(),
                        large.get().ownOpenMillis() / small.get().ownOpenMillis()));
            }
        }
        return findings;
    }
}
