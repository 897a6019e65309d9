package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;

/**
 * E7 (TODS19 §7.1.7, Fig. 22): repartition throughput of the eight designs and both baselines as the receivers'
 * compute intensity grows (extra hashing passes over every received tuple, the same work in the MPI program), and
 * each point relative to the same work done on local data by one thread per receiving thread — the shuffle's
 * "relative throughput": near 100% means communication is fully overlapped with computation.
 */
public final class ReceiveComputeExperiment extends ExperimentDriver {

    @Override
    public String name() {
        return "e7";
    }

    @Override
    public String title() {
        return "throughput vs receive-side compute intensity, eight designs + MPI + TCP (Fig. 22)";
    }

    @Override
    public String paperFinding() {
        return "network-bound at low intensity; MQ/SR, MQ/WR and MESQ/SR reach their relative peak earliest; MPI and"
                + " IPoIB never fully overlap; every RDMA design but SESQ/SR beats both baselines";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick
                ? ExperimentSettings.quick(List.of(2))
                : ExperimentSettings.defaults(List.of(2)).withRuns(3);
    }

    static List<Integer> intensities(ExperimentSettings settings) {
        return settings.quick() ? List.of(0, 8) : List.of(0, 4, 16);
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        List<Trial> trials = new ArrayList<>();
        for (int work : intensities(settings)) {
            Trial last = null;
            for (EndpointDesign design : EndpointDesign.values()) {
                ShuffleCase shuffleCase =
                        shuffleCase(design, ShufflePattern.REPARTITION, settings.smallestNodeCount(), settings);
                shuffleCase = shuffleCase.withTuning(shuffleCase.tuning().withReceiveWork(work));
                last = Trial.of(design.paperName(), work, Integer.toString(work), "work=" + work, shuffleCase);
                trials.add(last);
            }
            trials.add(last.asTcp());
            trials.add(last.asMpi());
            trials.add(last.asLocal());
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E7: repartition throughput per node vs receive work, " + settings.smallestNodeCount() + " nodes",
                "hashing passes per received tuple",
                false,
                r -> true));
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("vs MPI", "vs TCP", "vs own work=0", "vs local");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of(
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().group().equals(result.trial().group())
                                        && r.trial().series().equals("MPI"))),
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().group().equals(result.trial().group())
                                        && r.trial().series().equals("TCP"))),
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().series().equals(result.trial().series())
                                        && r.trial().x() == 0)),
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().group().equals(result.trial().group())
                                        && r.trial().local())));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (String group :
                results.stream().map(r -> r.trial().group()).distinct().toList()) {
            var mpi = find(
                    results,
                    r -> r.trial().group().equals(group) && r.trial().series().equals("MPI"));
            var tcp = find(
                    results,
                    r -> r.trial().group().equals(group) && r.trial().series().equals("TCP"));
            long beatBoth = results.stream()
                    .filter(r -> r.succeeded()
                            && r.trial().group().equals(group)
                            && !r.trial().mpi()
                            && !r.trial().local()
                            && !r.trial().shuffleCase().isTcp())
                    .filter(r -> mpi.map(m -> r.gigabytesPerSecond() > m.gigabytesPerSecond())
                                    .orElse(true)
                            && tcp.map(t -> r.gigabytesPerSecond() > t.gigabytesPerSecond())
                                    .orElse(true))
                    .count();
            var local = find(
                    results, r -> r.trial().group().equals(group) && r.trial().local());
            var best = results.stream()
                    .filter(r -> r.succeeded()
                            && r.trial().group().equals(group)
                            && !r.trial().mpi()
                            && !r.trial().local()
                            && !r.trial().shuffleCase().isTcp())
                    .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()));
            findings.add(format(
                    "%s: %d of 8 designs beat %s%s",
                    group,
                    beatBoth,
                    mpi.isPresent() ? "MPI and TCP" : "TCP (MPI not measured)",
                    local.isPresent() && best.isPresent()
                            ? format(
                                    "; best design (%s) at %.2f of local processing",
                                    best.get().trial().series(),
                                    best.get().gigabytesPerSecond()
                                            / local.get().gigabytesPerSecond())
                            : ""));
        }
        return findings;
    }
}
