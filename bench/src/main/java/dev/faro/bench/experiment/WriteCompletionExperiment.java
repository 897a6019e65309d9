package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.write.WriteCompletionMode;
import java.util.ArrayList;
import java.util.List;

/**
 * E2 (TODS19 §7.1.2, Fig. 15): MEMQ/WR with the three ways a receiver learns of a written buffer (poll buffers, poll
 * message queue, poll completion queue) as the RECEIVE threads' compute intensity grows (extra hashing passes over
 * every received vector); the table adds each mode's ratio to poll-CQ at the same intensity.
 */
public final class WriteCompletionExperiment extends ExperimentDriver {

    @Override
    public String name() {
        return "e2";
    }

    @Override
    public String title() {
        return "MEMQ/WR: poll-buffers vs poll-MQ vs poll-CQ under growing receive-side compute (Fig. 15)";
    }

    @Override
    public String paperFinding() {
        return "comparable when network-bound; poll-CQ overlaps best and is up to 1.5x faster when compute-bound";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2)) : ExperimentSettings.defaults(List.of(2));
    }

    static List<Integer> intensities(ExperimentSettings settings) {
        return settings.quick() ? List.of(0, 4) : List.of(0, 1, 2, 4, 8, 16);
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        List<Trial> trials = new ArrayList<>();
        for (int work : intensities(settings)) {
            for (WriteCompletionMode mode : WriteCompletionMode.values()) {
                ShuffleCase shuffleCase = shuffleCase(
                        EndpointDesign.MEMQ_WR, ShufflePattern.REPARTITION, settings.smallestNodeCount(), settings);
                shuffleCase = shuffleCase.withTuning(
                        shuffleCase.tuning().withWriteCompletionMode(mode).withReceiveWork(work));
                trials.add(Trial.of(
                        mode.name().toLowerCase(java.util.Locale.ROOT),
                        work,
                        Integer.toString(work),
                        "work=" + work,
                        shuffleCase));
            }
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E2: MEMQ/WR completion modes, " + settings.smallestNodeCount()
                        + " nodes: throughput per node vs receive work",
                "hashing passes per received vector",
                false,
                r -> true));
    }

    @Override
    protected boolean showCounters() {
        return true;
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("vs poll-CQ");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of(ratio(
                result,
                find(
                        all,
                        r -> r.trial().group().equals(result.trial().group())
                                && r.trial().shuffleCase().tuning().writeCompletionMode()
                                        == WriteCompletionMode.POLL_COMPLETION_QUEUE)));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (TrialResult result : results) {
            if (result.trial().shuffleCase().tuning().writeCompletionMode() == WriteCompletionMode.POLL_COMPLETION_QUEUE
                    && result.succeeded()) {
                double best = results.stream()
                        .filter(r -> r.succeeded()
                                && r.trial().group().equals(result.trial().group()))
                        .mapToDouble(TrialResult::gigabytesPerSecond)
                        .max()
                        .orElse(Double.NaN);
                findings.add(format(
                        "work %s: poll-CQ at %.2f of the best mode",
                        result.trial().xLabel(), result.gigabytesPerSecond() / best));
            }
        }
        return findings;
    }
}
