package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.Exchange;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.plan.PlanNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistributionTest {

    @Test
    void firstKeyPlacementMovesNothingBetweenCoPartitionedTables() {
        Distribution firstKey = Distribution.hybrid(Placement.FIRST_KEY, 2);
        for (TpchJoin join : TpchJoin.values()) {
            assertThat(firstKey.coPartitioned(join)).isTrue();
            assertThat(firstKey.broadcasts(join)).isFalse();
        }
        // Q3: the customers' broadcast to ORDERS and the final gather; the orders no longer move, nor the revenues
        assertThat(exchanges(TpchQueries.plan(3, firstKey)))
                .containsExactlyInAnyOrder(ExchangeKind.BROADCAST, ExchangeKind.GATHER);
        assertThat(exchanges(TpchQueries.plan(3, Distribution.DEFAULT)))
                .containsExactlyInAnyOrder(
                        ExchangeKind.BROADCAST, ExchangeKind.BROADCAST, ExchangeKind.REPARTITION, ExchangeKind.GATHER);
        // Q12: only the final gather
        assertThat(exchanges(TpchQueries.plan(12, firstKey))).containsExactly(ExchangeKind.GATHER);
        // Q18: the large orders' broadcast to CUSTOMER and the gather
        assertThat(exchanges(TpchQueries.plan(18, firstKey)))
                .containsExactlyInAnyOrder(ExchangeKind.BROADCAST, ExchangeKind.GATHER);
    }

    @Test
    void randomPlacementFollowsTheRuleWithTheExchangesUnits() {
        Distribution hybrid = Distribution.hybrid(Placement.RANDOM, 2);
        Distribution classic = Distribution.classic(Placement.RANDOM, 2, 2);
        assertThat(classic.parallelUnits()).isEqualTo(4);
        for (TpchJoin join : TpchJoin.values()) {
            assertThat(hybrid.broadcasts(join)).as(join.name()).isEqualTo(join.sizeRatio() > 1);
            assertThat(classic.broadcasts(join)).as(join.name()).isEqualTo(join.sizeRatio() > 3);
        }
        assertThat(flips(hybrid, classic))
                .containsExactly(TpchJoin.Q7_ORDERS, TpchJoin.Q8_ORDERS, TpchJoin.Q9_ORDERS, TpchJoin.Q21_LINEITEMS);
        // Q9 at 2 nodes: the profits broadcast to ORDERS (hybrid), ORDERS and the profits repartitioned (classic)
        assertThat(exchanges(TpchQueries.plan(9, hybrid))).doesNotContain(ExchangeKind.REPARTITION);
        assertThat(exchanges(TpchQueries.plan(9, classic)))
                .filteredOn(kind -> kind == ExchangeKind.REPARTITION)
                .hasSize(2);
    }

    @Test
    void theDefaultIsThePlansAsWrittenBeforeTheRule() {
        for (TpchJoin join : TpchJoin.values()) {
            assertThat(Distribution.DEFAULT.broadcasts(join)).as(join.name()).isTrue();
        }
    }

    /** The joins {@code a} broadcasts and {@code b} repartitions, or the other way round. */
    static List<TpchJoin> flips(Distribution a, Distribution b) {
        return Arrays.stream(TpchJoin.values())
                .filter(join -> a.broadcasts(join) != b.broadcasts(join))
                .toList();
    }

    private static List<ExchangeKind> exchanges(PlanNode plan) {
        List<ExchangeKind> kinds = new ArrayList<>();
        collect(plan, kinds);
        return kinds;
    }

    private static void collect(PlanNode node, List<ExchangeKind> kinds) {
        if (node instanceof Exchange exchange) {
            kinds.add(exchange.kind());
        }
        for (PlanNode child : node.children()) {
            collect(child, kinds);
        }
    }
}
