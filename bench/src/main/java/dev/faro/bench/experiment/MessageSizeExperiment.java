package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.util.ArrayList;
import java.util.List;

/**
 * E3 (TODS19 §7.1.3, Fig. 18): repartition throughput of the six RC designs against message size, 4 KiB to 1 MiB,
 * with double buffering (2 buffers per peer); MESQ/SR at its 4 KiB datagrams for reference. The table adds the
 * registered memory per shuffle operator and side (endpoints × nodes × 2 buffers × size).
 */
public final class MessageSizeExperiment extends ExperimentDriver {

    static final List<EndpointDesign> RC_DESIGNS = List.of(
            EndpointDesign.SEMQ_SR,
            EndpointDesign.MEMQ_SR,
            EndpointDesign.SEMQ_RD,
            EndpointDesign.MEMQ_RD,
            EndpointDesign.SEMQ_WR,
            EndpointDesign.MEMQ_WR);

    static final int DOUBLE_BUFFERING = 2;

    @Override
    public String name() {
        return "e3";
    }

    @Override
    public String title() {
        return "RC designs: throughput and pinned memory vs message size, double buffering (Fig. 18)";
    }

    @Override
    public String paperFinding() {
        return "SE designs underuse the network at <= 16 KiB (one endpoint cannot post enough small messages), ME"
                + " designs stay near peak at every size; pinned memory passes 100 MiB per operator at 1 MiB; UD SR"
                + " needs < 1 MiB; the paper picks 64 KiB";
    }

    @Override
    public ExperimentSettings defaults(boolean quick) {
        return quick ? ExperimentSettings.quick(List.of(2)) : ExperimentSettings.defaults(List.of(2));
    }

    static List<Integer> sizes(ExperimentSettings settings) {
        return settings.quick() ? List.of(4 << 10, 64 << 10) : List.of(4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20);
    }

    @Override
    protected List<Trial> trials(ExperimentSettings settings) {
        int nodes = settings.smallestNodeCount();
        List<Trial> trials = new ArrayList<>();
        for (EndpointDesign design : RC_DESIGNS) {
            for (int size : sizes(settings)) {
                ShuffleCase shuffleCase = shuffleCase(design, ShufflePattern.REPARTITION, nodes, settings)
                        .withBuffers(size, DOUBLE_BUFFERING);
                trials.add(Trial.of(design.paperName(), size, (size >> 10) + " KiB", "sizes", shuffleCase));
            }
        }
        ShuffleCase datagrams = shuffleCase(EndpointDesign.MESQ_SR, ShufflePattern.REPARTITION, nodes, settings)
                .withBuffers(4096, DOUBLE_BUFFERING);
        trials.add(Trial.of(EndpointDesign.MESQ_SR.paperName(), 4096, "4 KiB", "sizes", datagrams));
        return trials;
    }

    @Override
    protected List<Plot> plots(ExperimentSettings settings) {
        return List.of(Plot.throughput(
                "",
                "E3: repartition throughput per node vs message size, " + settings.smallestNodeCount()
                        + " nodes, 2 buffers per peer",
                "message size (bytes)",
                true,
                r -> true));
    }

    @Override
    protected List<String> extraColumns() {
        return List.of("pinned KiB per side", "vs 64 KiB");
    }

    @Override
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        ShuffleCase shuffleCase = result.trial().shuffleCase();
        long pinned = (long) shuffleCase.endpointConfig().endpointsPerNode()
                * shuffleCase.nodes()
                * shuffleCase.buffersPerPeer()
                * shuffleCase.bufferBytes();
        return List.of(
                Long.toString(pinned >> 10),
                ratio(
                        result,
                        find(
                                all,
                                r -> r.trial().series().equals(result.trial().series())
                                        && r.trial().x() == 64 << 10)));
    }

    @Override
    protected List<String> findings(List<TrialResult> results) {
        List<String> findings = new ArrayList<>();
        for (EndpointDesign design : RC_DESIGNS) {
            String name = design.paperName();
            var small = find(
                    results, r -> r.trial().series().equals(name) && r.trial().x() == 4 << 10);
            var best = results.stream()
                    .filter(r -> r.succeeded() && r.trial().series().equals(name))
                    .max((a, b) -> Double.compare(a.gigabytesPerSecond(), b.gigabytesPerSecond()));
            if (small.isPresent() && best.isPresent()) {
                findings.add(format(
                        "%s: 4 KiB reaches %.2f of its best size (%s)",
                        name,
                        small.get().gigabytesPerSecond() / best.get().gigabytesPerSecond(),
                        best.get().trial().xLabel()));
            }
        }
        return findings;
    }
}
