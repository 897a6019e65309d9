package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;

/**
 * E8 (TODS19 §7.1.8, Figs. 23–24): MESQ/SR on 2 nodes with fixed buffer depths, the bandwidth-delay depth and the
 * adaptive policy, at a light and a heavy receive-side compute intensity and in the skewed case where one node is
 * slow (heavy) and the other light. x is the scenario: 1 light, 2 heavy, 3 skewed.
 *
 * <p>The paper sweeps 28 (single buffering: 14 threads × 2 peers × 1) to 10,000 receive buffers per node. Scaled to
 * this harness's threads, the sweep is per peer: 1 (single buffering) … 357 (= 10,000 / 28), so a node holds
 * {@code threads × nodes × depth} receive buffers (MESQ: one endpoint per thread). The adaptive policy starts at 2 and
 * may grow to 512 per peer.
 *
 * <p>The bandwidth-delay depth is computed from an assumed 2 GB/s and 20 µs round trip for {@code shm} on one host
 * (a lower bound that ignores processing time, as in the paper).
 */
public final class BufferPolicyExperiment extends ExperimentDriver {

    static final int LIGHT_WORK = 1;
    static final int HEAVY_WORK = 8;
    static final String BANDWIDTH_DELAY = "bdp:2e9:20000";
    static final String ADAPTIVE = "adaptive:2:512";

    @Override
    public String name() {
        return "e8";
    }

    @Override
    public String title() {
        return "MESQ/SR: adaptive vs fixed vs bandwidth-delay buffer depth, light / heavy / skewed receivers"
                + " (Figs. 23-24)";
    }

    @Override
    public String paperFinding() {
        return "adaptive is comparable to or better than the best fixed depth and beats BDP; it uses fewer buffers"
                + " when CPU-bound; with one slow node no single fixed depth suits both nodes";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2)) : ExperimentSettings.defaults(List.of(2));
    }

    static List<String> policies(ExperimentSettings settings) {
        return settings.quick()
                ? List.of("fixed:2", BANDWIDTH_DELAY, ADAPTIVE)
                : List.of("fixed:1", "fixed:4", "fixed:16", "fixed:64", "fixed:357", BANDWIDTH_DELAY, ADAPTIVE);
    }

    private static String series(String policy) {
        return policy.startsWith("bdp") ? "BDP" : policy.startsWith("adaptive") ? "adaptive" : policy;
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        List<Trial> trials = new ArrayList<>();
        String[] scenarios = {"light", "heavy", "skewed"};
        for (int scenario = 0; scenario < scenarios.length; scenario++) {
            for (String policy : policies(settings)) {
                ShuffleCase shuffleCase = shuffleCase(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, 2, settings);
                var tuning = shuffleCase
                        .tuning()
                        .withBufferPolicy(policy)
                        .withReceiveWork(scenario == 0 ? LIGHT_WORK : HEAVY_WORK);
                if (scenario == 2) {
                    tuning = tuning.withReceiveWork(LIGHT_WORK).withSlowNode(1, HEAVY_WORK);
                }
                trials.add(Trial.of(
                        series(policy),
                        scenario + 1,
                        scenarios[scenario],
                        scenarios[scenario],
                        shuffleCase.withTuning(tuning)));
            }
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E8: MESQ/SR buffer policies, 2 nodes: 1 = light, 2 = heavy, 3 = skewed" + " receivers",
                "scenario",
                false,
                r -> true));
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("vs best fixed");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of(ratio(result, bestFixed(all, result.trial().group())));
    }

    private static java.util.Optional<TrialResult> bestFixed(List<TrialResult> all, String group) {
        return all.stream()
                .filter(r -> r.succeeded()
                        && r.trial().group().equals(group)
                        && r.trial().series().startsWith("fixed"))
                .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (String group : List.of("light", "heavy", "skewed")) {
            var best = bestFixed(results, group);
            var adaptive = find(
                    results,
                    r -> r.trial().group().equals(group) && r.trial().series().equals("adaptive"));
            var bdp = find(
                    results,
                    r -> r.trial().group().equals(group) && r.trial().series().equals("BDP"));
            if (best.isPresent() && adaptive.isPresent()) {
                findings.add(format(
                        "%s: adaptive at %.2f of the best fixed depth (%s)%s",
                        group,
                        adaptive.get().gigabytesPerSecond() / best.get().gigabytesPerSecond(),
                        best.get().trial().series(),
                        bdp.map(b -> format(
                                        ", BDP at %.2f",
                                        b.gigabytesPerSecond() / best.get().gigabytesPerSecond()))
                                .orElse("")));
            }
        }
        return findings;
    }
}
