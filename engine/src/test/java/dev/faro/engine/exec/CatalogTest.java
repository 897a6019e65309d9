package dev.faro.engine.exec;

import static dev.faro.engine.exec.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

class CatalogTest {

    private static final Schema SCHEMA = Schema.of(new Column("k", DataType.BIGINT), new Column("v", DataType.INTEGER));

    @Test
    void columnNullsAreReadOnceAndAgainForAReplacedTable() {
        Catalog catalog =
                Catalog.of(List.of(TestTables.table("t", SCHEMA, List.of(row(1L, 1), row(2L, 2), row(3L, null)), 2)));
        boolean[] first = catalog.mayHaveNulls("t");
        assertThat(first).containsExactly(false, true);
        assertThat(catalog.mayHaveNulls("t")).as("read once").isSameAs(first);

        catalog.put(TestTables.table("t", SCHEMA, List.of(row(null, 1), row(2L, 2)), 1));
        assertThat(catalog.mayHaveNulls("t")).as("the replaced table's").containsExactly(true, false);
    }
}
