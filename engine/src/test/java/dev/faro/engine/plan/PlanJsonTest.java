package dev.faro.engine.plan;

import static dev.faro.engine.expression.Expressions.*;
import static dev.faro.engine.plan.Plans.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.exec.SamplePlans;
import dev.faro.engine.exec.TestTables;
import dev.faro.engine.vector.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanJsonTest {

    @Test
    void realisticPlansRoundTrip() {
        for (PlanNode plan :
                List.of(SamplePlans.q3(), SamplePlans.q4(), SamplePlans.q10(), SamplePlans.ordersPerCustomer())) {
            String json = PlanJson.toJson(plan);
            PlanNode back = PlanJson.fromJson(json);
            assertThat(back).isEqualTo(plan);
            assertThat(back.outputSchema()).isEqualTo(plan.outputSchema());
            assertThat(PlanJson.toJson(back)).isEqualTo(json);
        }
    }

    @Test
    void everyExpressionKindRoundTrips() {
        PlanNode plan = scan("lineitem", TestTables.LINEITEM, "l_orderkey", "l_quantity", "l_shipdate", "l_returnflag")
                .filter(or(
                        and(between(col("l_quantity"), decimal("1.00"), lit(10)), not(isNull(col("l_orderkey")))),
                        in(col("l_returnflag"), "R", "A"),
                        like(col("l_returnflag"), "N%")))
                .project(
                        as(
                                caseWhen(
                                        eq(year(col("l_shipdate")), intLit(1995)),
                                        toDouble(col("l_quantity")),
                                        lit(0.5)),
                                "x"),
                        as(substring(col("l_returnflag"), 1, 1), "flag"),
                        as(div(col("l_quantity"), lit(3)), "third"),
                        as(nullLiteral(DataType.DATE), "none"))
                .limit(5);
        assertThat(PlanJson.fromJson(PlanJson.toJson(plan))).isEqualTo(plan);
    }

    @Test
    void invalidPlansAreRejectedWithTheKnownNames() {
        assertThatThrownBy(() -> scan("orders", TestTables.ORDERS, "o_orderkey").filter(eq(col("o_nope"), lit(1))))
                .hasMessageContaining("o_orderkey");
        assertThatThrownBy(() -> scan("orders", TestTables.ORDERS, "o_orderkey").repartition())
                .isInstanceOf(IllegalArgumentException.class);
        String json =
                PlanJson.toJson(scan("orders", TestTables.ORDERS, "o_orderkey").limit(1));
        assertThatThrownBy(() -> PlanJson.fromJson(json.replace("\"count\":1", "\"count\":-1")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
