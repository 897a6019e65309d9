package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class DuckDbOracleTest {

    @Test
    void loadsTheGeneratedTablesExactly() throws Exception {
        var tables = new TpchGenerator(0.01, 0, 1, Placement.RANDOM, 2).generateAll(name -> {});
        try (DuckDbOracle oracle = new DuckDbOracle(tables)) {
            assertThat(oracle.query("SELECT count(*) FROM lineitem")).containsExactly(List.of(60_175L));
            List<List<Object>> sum = oracle.query("SELECT sum(l_extendedprice) FROM lineitem");
            long cents = TpchGeneratorTest.rows(TpchGeneratorTest.find(tables, "lineitem")).stream()
                    .mapToLong(row -> (Long) row.get(5))
                    .sum();
            assertThat((BigDecimal) sum.getFirst().getFirst()).isEqualByComparingTo(BigDecimal.valueOf(cents, 2));
            assertThat(oracle.query(DuckDbOracle.queryText(4))).hasSize(5);
        }
    }
}
