package dev.faro.bench.experiment;

import dev.faro.bench.baseline.MpiBaseline;
import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * E4 (TODS19 §7.1.4, Fig. 19): repartition and broadcast receive throughput per node against node count, for the
 * eight designs and the MPI and TCP baselines, all in one invocation; the table gives each design's ratio to MPI and
 * to TCP at the same pattern and node count.
 */
public final class ScaleOutExperiment extends ExperimentDriver {

    static final List<ShufflePattern> PATTERNS = List.of(ShufflePattern.REPARTITION, ShufflePattern.BROADCAST);

    @Override
    public String name() {
        return "e4";
    }

    @Override
    public String title() {
        return "repartition and broadcast throughput per node vs node count, eight designs + MPI + TCP (Fig. 19)";
    }

    @Override
    public String paperFinding() {
        return "RDMA designs beat MPI by up to 2x (repartition) and 4x (broadcast) and IPoIB by up to 3x; MESQ/SR"
                + " scales best, MQ/RD degrades in broadcast";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2, 4)) : ExperimentSettings.defaults(List.of(2, 4));
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        List<Trial> trials = new ArrayList<>();
        for (ShufflePattern pattern : PATTERNS) {
            for (int nodes : settings.nodeCounts()) {
                String group = pattern.label() + "@" + nodes;
                Trial last = null;
                for (EndpointDesign design : EndpointDesign.values()) {
                    ShuffleCase shuffleCase = shuffleCase(design, pattern, nodes, settings);
                    last = Trial.of(design.paperName(), nodes, Integer.toString(nodes), group, shuffleCase);
                    trials.add(last);
                }
                trials.add(last.asTcp());
                trials.add(last.asMpi());
            }
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        List<Plot> plots = new ArrayList<>();
        for (ShufflePattern pattern : PATTERNS) {
            plots.add(Plot.throughput(
                    pattern.label(),
                    String.format(
                            Locale.ROOT,
                            "E4 %s: receive throughput per node, 16-byte tuples, %d threads per node (median of %d)",
                            pattern.label(),
                            settings.threads(),
                            settings.runs()),
                    "nodes",
                    false,
                    r -> r.trial().shuffleCase().pattern().equals(pattern.label())));
        }
        return plots;
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("vs MPI", "vs TCP");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of(ratio(result, all, "MPI"), ratio(result, all, "TCP"));
    }

    private static String ratio(TrialResult result, List<TrialResult> all, String baseline) {
        return ratio(result, baseline(result, all, baseline));
    }

    /** The successful {@code baseline} result measured in the same group as {@code result}. */
    static Optional<TrialResult> baseline(TrialResult result, List<TrialResult> all, String baseline) {
        return all.stream()
                .filter(r -> r.succeeded()
                        && r.trial().series().equals(baseline)
                        && r.trial().group().equals(result.trial().group()))
                .findFirst();
    }

    /**
     * The headline at the smallest node count, against MPI at equal cores ({@link MpiBaseline#ranksPerNode}; the line
     * names MPI's configuration) and at MPI's fastest run, not its median: Open MPI is bimodal on the development host
     * (repartition at 1.05 or 2.8 GB/s run to run), and a goal met against its slow mode is not met. The designs'
     * medians against that: the best design at least 1.5x MPI and 2x TCP on repartition, MESQ/SR at least 1x MPI, and
     * the best design at least 1x MPI on broadcast; then the best ratios seen per pattern (against medians).
     */
    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        int nodes = results.stream()
                .mapToInt(r -> r.trial().shuffleCase().nodes())
                .min()
                .orElse(2);
        String repartition = "repartition@" + nodes;
        String broadcast = "broadcast@" + nodes;
        Optional<TrialResult> bestRepartition = bestDesign(results, repartition);
        Optional<TrialResult> bestBroadcast = bestDesign(results, broadcast);
        Optional<TrialResult> mesq = find(results, repartition, "MESQ/SR");
        Optional<TrialResult> mpi = find(results, repartition, "MPI");
        Optional<TrialResult> mpiBroadcast = find(results, broadcast, "MPI");
        Optional<TrialResult> tcp = find(results, repartition, "TCP");
        if (bestRepartition.isPresent() && mpi.isPresent() && tcp.isPresent()) {
            double mpiFastest = mpi.get().maxGigabytesPerSecond();
            double bestMpi = bestRepartition.get().gigabytesPerSecond() / mpiFastest;
            double bestTcp =
                    bestRepartition.get().gigabytesPerSecond() / tcp.get().gigabytesPerSecond();
            double mesqMpi = mesq.map(m -> m.gigabytesPerSecond() / mpiFastest).orElse(Double.NaN);
            double broadcastMpi = bestBroadcast.isPresent() && mpiBroadcast.isPresent()
                    ? bestBroadcast.get().gigabytesPerSecond()
                            / mpiBroadcast.get().maxGigabytesPerSecond()
                    : Double.NaN;
            boolean met = bestMpi >= 1.5 && bestTcp >= 2 && mesqMpi >= 1 && broadcastMpi >= 1;
            findings.add(format(
                    "goal at %d nodes, MPI at equal cores (%s), at its fastest of %d runs (repartition %.2f GB/s,"
                            + " median %.2f, slowest %.2f): %s — repartition: best design %s %.2fx MPI (>= 1.5)"
                            + " and %.2fx TCP (>= 2), MESQ/SR %.2fx MPI (>= 1); broadcast: best design %s %.2fx MPI"
                            + " (>= 1)",
                    nodes,
                    MpiBaseline.configuration(mpi.get().trial().shuffleCase()),
                    mpi.get().runs(),
                    mpiFastest,
                    mpi.get().gigabytesPerSecond(),
                    mpi.get().minGigabytesPerSecond(),
                    met ? "MET" : "NOT MET",
                    bestRepartition.get().trial().series(),
                    bestMpi,
                    bestTcp,
                    mesqMpi,
                    bestBroadcast.map(r -> r.trial().series()).orElse("-"),
                    broadcastMpi));
        } else {
            findings.add(format(
                    "goal at %d nodes undecided: %s not measured",
                    nodes, mpi.isEmpty() ? "MPI" : tcp.isEmpty() ? "TCP" : "no design"));
        }
        for (ShufflePattern pattern : PATTERNS) {
            for (String baseline : List.of("MPI", "TCP")) {
                results.stream()
                        .filter(r -> r.succeeded()
                                && !r.trial().series().equals("MPI")
                                && !r.trial().series().equals("TCP")
                                && r.trial().shuffleCase().pattern().equals(pattern.label()))
                        .flatMap(r -> baseline(r, results, baseline)
                                .map(b -> new double[] {
                                    r.gigabytesPerSecond() / b.gigabytesPerSecond(),
                                    r.trial().x(),
                                    Arrays.asList(EndpointDesign.values())
                                            .indexOf(r.trial().shuffleCase().design())
                                })
                                .stream())
                        .max((a, b) -> Double.compare(a[0], b[0]))
                        .ifPresent(best -> findings.add(format(
                                "%s: best design vs %s: %.2fx (%s at %.0f nodes)",
                                pattern.label(),
                                baseline,
                                best[0],
                                EndpointDesign.values()[(int) best[2]].paperName(),
                                best[1])));
            }
        }
        return findings;
    }

    /** The fastest design (not a baseline) of {@code group}. */
    private static Optional<TrialResult> bestDesign(List<TrialResult> results, String group) {
        return results.stream()
                .filter(r -> r.succeeded()
                        && r.trial().group().equals(group)
                        && !r.trial().mpi()
                        && !r.trial().shuffleCase().isTcp())
                .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()));
    }

    private static Optional<TrialResult> find(List<TrialResult> results, String group, String series) {
        return find(
                results,
                r -> r.trial().group().equals(group) && r.trial().series().equals(series));
    }
}
