package dev.faro.bench.experiment;

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
     * The acceptance goal at the smallest node count: MESQ/SR and the best RC design at least 1.5x MPI and 2x TCP
     * (repartition), and the best ratios seen per pattern.
     */
    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        int nodes = results.stream()
                .mapToInt(r -> r.trial().shuffleCase().nodes())
                .min()
                .orElse(2);
        String group = "repartition@" + nodes;
        Optional<TrialResult> mesq = find(results, group, "MESQ/SR");
        Optional<TrialResult> bestRc = results.stream()
                .filter(r -> r.succeeded()
                        && r.trial().group().equals(group)
                        && !r.trial().mpi()
                        && !r.trial().shuffleCase().isTcp()
                        && !r.trial().shuffleCase().design().implementation().needsDatagrams())
                .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()));
        Optional<TrialResult> mpi = find(results, group, "MPI");
        Optional<TrialResult> tcp = find(results, group, "TCP");
        if (mesq.isPresent() && bestRc.isPresent() && tcp.isPresent()) {
            double mesqTcp = mesq.get().gigabytesPerSecond() / tcp.get().gigabytesPerSecond();
            double rcTcp = bestRc.get().gigabytesPerSecond() / tcp.get().gigabytesPerSecond();
            String mpiPart = "MPI not measured";
            boolean met = mesqTcp >= 2 && rcTcp >= 2;
            if (mpi.isPresent()) {
                double mesqMpi = mesq.get().gigabytesPerSecond() / mpi.get().gigabytesPerSecond();
                double rcMpi = bestRc.get().gigabytesPerSecond() / mpi.get().gigabytesPerSecond();
                mpiPart = format(
                        "MESQ/SR %.2fx MPI, %s %.2fx MPI",
                        mesqMpi, bestRc.get().trial().series(), rcMpi);
                met = met && mesqMpi >= 1.5 && rcMpi >= 1.5;
            }
            findings.add(format(
                    "goal at %d nodes (MESQ/SR and best RC design >= 1.5x MPI and >= 2x TCP,"
                            + " repartition): %s — %s; MESQ/SR %.2fx TCP, %s %.2fx TCP",
                    nodes,
                    mpi.isPresent() ? (met ? "MET" : "NOT MET") : "undecided without MPI",
                    mpiPart,
                    mesqTcp,
                    bestRc.get().trial().series(),
                    rcTcp));
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

    private static Optional<TrialResult> find(List<TrialResult> results, String group, String series) {
        return find(
                results,
                r -> r.trial().group().equals(group) && r.trial().series().equals(series));
    }
}
