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
    static final List<String> ALL = List.of(
            BatchingSweep.NAME,
            PollingLatency.NAME,
            Q1LoadBalancing.NAME,
            Elasticity.NAME,
            ReplicationOrder.NAME,
            QosShares.NAME,
            NmShuffle.NAME,
            DistributedJoin.NAME);

    /** TPC-H scale factor of the Q1 use case: 60,175 lineitem rows. */
    static final double Q1_SCALE_FACTOR = 0.01;

    private ZeroSidedExperiments() {}

    static boolean isExperiment(String mode) {
        return ALL.contains(mode);
    }

    static ExperimentResult run(ZeroSidedPoint point, int runs) throws Exception {
        LinkKind link = LinkKind.of(point.link());
        double seconds = point.seconds();
        return switch (point.mode()) {
            case BatchingSweep.NAME -> BatchingSweep.run(link, seconds / 4, runs);
            case PollingLatency.NAME -> PollingLatency.run(link, seconds / 2, runs);
            case Q1LoadBalancing.NAME -> Q1LoadBalancing.run(link, Q1_SCALE_FACTOR, seconds / 2, runs);
            case Elasticity.NAME -> Elasticity.run(link, seconds / 2);
            case ReplicationOrder.NAME -> ReplicationOrder.run(link, seconds, runs);
            case QosShares.NAME -> QosShares.run(link, Math.max(1.0, seconds));
            case NmShuffle.NAME -> NmShuffle.run(link, seconds, runs);
            case DistributedJoin.NAME -> DistributedJoin.run(link, seconds, runs);
            default -> throw new IllegalArgumentException("unknown experiment: " + point.mode());
        };
    }
}
