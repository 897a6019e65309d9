package dev.faro.bench.zerosided;

import dev.faro.zerosided.link.LinkKind;
import java.util.List;

/**
 * The experiments of {@code faro bench zerosided} beyond Fig. 6, by option name, each run on the switch node in one
 * process ({@link SwitchRig}) on the point's packet link, with {@link ZeroSidedPoint#seconds()} as its time scale.
 *
 * <p>Coordination code.
 */
final class ZeroSidedExperiments {

    /** Every experiment, in the order they run and print. */
    static final List<String> ALL = List.of(Q1LoadBalancing.NAME);

    /** TPC-H scale factor of the Q1 use case: 60,175 lineitem rows. */
    static final double Q1_SCALE_FACTOR = 0.01;

    private ZeroSidedExperiments() {}

    static boolean isExperiment(String mode) {
        return ALL.contains(mode);
    }

    static ExperimentResult run(ZeroSidedPoint point, int runs) {
        LinkKind link = LinkKind.of(point.link());
        return switch (point.mode()) {
            case Q1LoadBalancing.NAME -> Q1LoadBalancing.run(link, Q1_SCALE_FACTOR, point.seconds() / 2, runs);
            default -> throw new IllegalArgumentException("unknown experiment: " + point.mode());
        };
    }
}
