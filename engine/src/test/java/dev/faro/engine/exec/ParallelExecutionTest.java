package dev.faro.engine.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.PlanNode;
import dev.faro.engine.vector.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Morsel-driven execution on one node gives the same rows whatever the thread count and morsel size. */
class ParallelExecutionTest {

    private static final List<Table> SMALL_MORSELS = TestTables.tpchLike(400, 257, 7);
    private static final List<Table> LARGE_MORSELS = TestTables.tpchLike(400, 16_384, 7);

    private static List<List<Object>> run(PlanNode plan, List<Table> tables, int threads) {
        return QueryExecutor.execute(plan, ExecutionContext.local(Catalog.of(tables), threads))
                .rows();
    }

    @Test
    void resultsDoNotDependOnThreadsOrMorsels() {
        for (PlanNode plan :
                List.of(SamplePlans.q3(), SamplePlans.q4(), SamplePlans.q10(), SamplePlans.ordersPerCustomer())) {
            List<List<Object>> expected = run(plan, LARGE_MORSELS, 1);
            assertThat(expected).isNotEmpty();
            for (int threads : new int[] {2, 3, 4}) {
                assertThat(run(plan, SMALL_MORSELS, threads))
                        .as(threads + " threads")
                        .containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void unorderedResultsHoldTheSameRows() {
        PlanNode plan = SamplePlans.q10()
                .children()
                .getFirst()
                .children()
                .getFirst()
                .children()
                .getFirst();
        List<List<Object>> expected = run(plan, LARGE_MORSELS, 1);
        assertThat(run(plan, SMALL_MORSELS, 4)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void statisticsCountPipelines() {
        QueryResult result =
                QueryExecutor.execute(SamplePlans.q4(), ExecutionContext.local(Catalog.of(SMALL_MORSELS), 2));
        assertThat(result.statistics().pipelines()).hasSizeGreaterThan(3);
        assertThat(result.statistics().pipelines().getLast().description()).endsWith("result");
        assertThat(result.statistics().exchanges()).isEmpty();
        assertThat(result.schema().names()).containsExactly("o_orderpriority", "order_count");
        String text = result.format(2);
        assertThat(text)
                .startsWith("o_orderpriority | order_count")
                .contains("1-URGENT")
                .contains("3 more rows");
    }
}
