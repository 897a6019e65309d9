package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;

/**
 * E1 (TODS19 §7.1.1, Figs. 13–14): repartition throughput of the four Send/Receive designs against the credit
 * write-back frequency (receives re-posted per credit write), 16 buffers per peer, 64 KiB (MQ) or 4 KiB (SQ)
 * messages; the table adds each point's ratio to the paper's choice, f = 2, and the registered memory the interval
 * needs at least (f buffers per thread and destination, Fig. 14c).
 */
public final class CreditFrequencyExperiment extends ExperimentDriver {

    static final List<EndpointDesign> DESIGNS =
            List.of(EndpointDesign.SESQ_SR, EndpointDesign.MESQ_SR, EndpointDesign.SEMQ_SR, EndpointDesign.MEMQ_SR);

    @Override
    public String name() {
        return "e1";
    }

    @Override
    public String title() {
        return "Send/Receive designs: throughput vs credit write-back frequency (Figs. 13-14)";
    }

    @Override
    public String paperFinding() {
        return "the frequency barely affects throughput (credit flow control is cheap); only the registered memory"
                + " grows with the interval; the paper settles on f = 2";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2)) : ExperimentSettings.defaults(List.of(2));
    }

    private static List<Integer> frequencies(ExperimentSettings settings) {
        return settings.quick() ? List.of(1, 16) : List.of(1, 2, 4, 8, 16);
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        int nodes = settings.smallestNodeCount();
        List<Trial> trials = new ArrayList<>();
        for (EndpointDesign design : DESIGNS) {
            for (int frequency : frequencies(settings)) {
                ShuffleCase shuffleCase = shuffleCase(design, ShufflePattern.REPARTITION, nodes, settings);
                shuffleCase = shuffleCase.withTuning(shuffleCase.tuning().withCreditWriteBackFrequency(frequency));
                trials.add(Trial.of(design.paperName(), frequency, Integer.toString(frequency), "f", shuffleCase));
            }
        }
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E1: repartition throughput per node vs credit write-back frequency, " + settings.smallestNodeCount()
                        + " nodes, 16 buffers per peer",
                "receives posted per credit write",
                true,
                r -> true));
    }

    @Override
    protected boolean showCounters() {
        return true;
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("vs f=2", "min pinned KiB");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        ShuffleCase shuffleCase = result.trial().shuffleCase();
        long pinned = (long) result.trial().x() >= 1
                ? (long) result.trial().x() * shuffleCase.threads() * shuffleCase.nodes() * shuffleCase.bufferBytes()
                : 0;
        return List.of(
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().series().equals(result.trial().series())
                                        && r.trial().x() == EndpointConfig.DEFAULT_CREDIT_WRITE_BACK_FREQUENCY)),
                Long.toString(pinned / 1024));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (EndpointDesign design : DESIGNS) {
            double spread = spread(results, r -> r.trial().series().equals(design.paperName()));
            if (Double.isFinite(spread)) {
                findings.add(format("%s: fastest / slowest frequency = %.2f", design.paperName(), spread));
            }
        }
        return findings;
    }
}
