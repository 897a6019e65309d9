package dev.faro.engine.tpch;

import dev.faro.engine.plan.AggregateCall;
import dev.faro.engine.plan.BroadcastRule;
import dev.faro.engine.plan.PlanNode;
import java.util.List;
import java.util.Objects;

/**
 * What the hand-written TPC-H plans adapt to: where the tables lie ({@link Placement}) and how many parallel units
 * the exchange has (a decoupled exchange: one per node; a classic exchange: one per thread of every node). Under
 * {@link Placement#FIRST_KEY} a join of two tables on the key both are placed by ({@link TpchJoin#key()}) moves
 * nothing, and an aggregation grouped on that key needs no repartition; otherwise {@link BroadcastRule} chooses
 * between broadcasting a join's build side and repartitioning both sides. Immutable; coordination code.
 *
 * @param placement how the database was placed on the nodes
 * @param parallelUnits the exchange's parallel units, ≥ 1
 */
public record Distribution(Placement placement, long parallelUnits) {

    /** Random placement, two units: the plans as written before the rule (each join's build side broadcast). */
    public static final Distribution DEFAULT = hybrid(Placement.RANDOM, 2);

    public Distribution {
        Objects.requireNonNull(placement, "placement is null");
        BroadcastRule.threshold(parallelUnits);
    }

    /** A decoupled (hybrid) exchange: the units are the {@code nodes} servers. */
    public static Distribution hybrid(Placement placement, int nodes) {
        return new Distribution(placement, nodes);
    }

    /** A classic exchange: the units are the {@code threads} of each of the {@code nodes} servers. */
    public static Distribution classic(Placement placement, int nodes, int threads) {
        return new Distribution(placement, Math.multiplyExact((long) nodes, threads));
    }

    /**
     * Whether the two tables of {@code join} lie on the same node for equal keys: under first-key placement for
     * every {@link TpchJoin} (each joins tables placed by the same first key column, {@link TpchJoin#key()}).
     */
    public boolean coPartitioned(TpchJoin join) {
        return placement == Placement.FIRST_KEY;
    }

    /** Whether {@link #join} would broadcast the build side of {@code join} (false: repartition both, or nothing). */
    public boolean broadcasts(TpchJoin join) {
        return !coPartitioned(join)
                && BroadcastRule.broadcasts(
                        join.buildBytesPerScaleFactor(), join.probeBytesPerScaleFactor(), parallelUnits);
    }

    /**
     * {@code probe} joined with {@code build} as {@code join} says: in place when co-partitioned, the build side
     * broadcast when the rule says so, otherwise both sides repartitioned on their keys. Both sides must still lie
     * where their table's rows were placed (filtered, projected, joined with broadcast rows, aggregated on the key).
     */
    public PlanNode join(
            TpchJoin join, PlanNode probe, PlanNode build, List<String> probeKeys, List<String> buildKeys) {
        if (!coPartitioned(join)) {
            if (broadcasts(join)) {
                build = build.broadcast();
            } else {
                probe = probe.repartition(probeKeys.toArray(String[]::new));
                build = build.repartition(buildKeys.toArray(String[]::new));
            }
        }
        return probe.join(join.type(), build, probeKeys, buildKeys, null, List.of());
    }

    /** {@link #join} on one key column each. */
    public PlanNode join(TpchJoin join, PlanNode probe, PlanNode build, String probeKey, String buildKey) {
        return join(join, probe, build, List.of(probeKey), List.of(buildKey));
    }

    /**
     * Aggregation of {@code input} grouped by {@code groupKeys}, which hold the first key column of the table whose
     * rows {@code input} still lies by: one phase where the rows lie when the placement keeps each key's rows on one
     * node, otherwise distributed (partial, repartition, final).
     */
    public PlanNode aggregate(PlanNode input, List<String> groupKeys, AggregateCall... aggregates) {
        return placement == Placement.FIRST_KEY
                ? input.aggregate(groupKeys, aggregates)
                : input.distributedAggregate(groupKeys, aggregates);
    }
}
