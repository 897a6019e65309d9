package dev.faro.engine.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Table;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TpchGeneratorTest {

    private static final double SF = 0.01;

    @ParameterizedTest
    @EnumSource(Placement.class)
    void everyTupleLivesOnExactlyOneNodeAndNationAndRegionEverywhere(Placement placement) {
        List<Table> whole = new TpchGenerator(SF, 0, 1, placement, 1).generateAll(name -> {});
        int nodes = 3;
        List<List<Table>> parts = new ArrayList<>();
        for (int node = 0; node < nodes; node++) {
            parts.add(new TpchGenerator(SF, node, nodes, placement, 2).generateAll(name -> {}));
        }
        for (int t = 0; t < whole.size(); t++) {
            Table table = whole.get(t);
            long total = 0;
            Set<List<Object>> union = new HashSet<>();
            for (List<Table> node : parts) {
                Table part = node.get(t);
                assertThat(part.schema()).isEqualTo(table.schema());
                total += part.rowCount();
                rows(part).forEach(union::add);
            }
            if (table.name().equals("nation") || table.name().equals("region")) {
                assertThat(total).as(table.name()).isEqualTo(nodes * table.rowCount());
            } else {
                assertThat(total).as(table.name()).isEqualTo(table.rowCount());
                assertThat(union).as(table.name()).containsExactlyInAnyOrderElementsOf(new HashSet<>(rows(table)));
                for (List<Table> node : parts) {
                    if (table.rowCount() >= 1_000) {
                        assertThat(node.get(t).rowCount())
                                .as(table.name() + " is spread")
                                .isGreaterThan(table.rowCount() / nodes / 2);
                    }
                }
            }
        }
        assertThat(whole.stream()
                        .filter(t -> t.name().equals("lineitem"))
                        .findFirst()
                        .orElseThrow()
                        .rowCount())
                .isEqualTo(60_175);
    }

    @Test
    void firstKeyPlacementCoPartitionsOrdersAndLineitem() {
        int nodes = 2;
        for (int node = 0; node < nodes; node++) {
            TpchGenerator generator = new TpchGenerator(SF, node, nodes, Placement.FIRST_KEY, 1);
            Set<Object> orderKeys = new HashSet<>();
            rows(generator.generate(io.trino.tpch.TpchTable.ORDERS)).forEach(row -> orderKeys.add(row.getFirst()));
            Set<Object> lineOrderKeys = new HashSet<>();
            rows(generator.generate(io.trino.tpch.TpchTable.LINE_ITEM))
                    .forEach(row -> lineOrderKeys.add(row.getFirst()));
            assertThat(orderKeys).containsAll(lineOrderKeys);
        }
    }

    @Test
    void decimalsAreExactCents() {
        Table lineitem = find(new TpchGenerator(SF, 0, 1, Placement.RANDOM, 1).generateAll(n -> {}), "lineitem");
        List<Object> first = lineitem.batches().getFirst().row(0);
        int price = lineitem.schema().indexOf("l_extendedprice");
        assertThat(lineitem.schema().columns().get(price).type().scale()).isEqualTo(2);
        assertThat(first.get(price)).isNotNull();
    }

    @Test
    void badArgumentsAreRefused() {
        assertThatThrownBy(() -> new TpchGenerator(0, 0, 1, Placement.RANDOM, 1))
                .hasMessageContaining("scale factor must be positive");
        assertThatThrownBy(() -> Placement.parse("hash")).hasMessageContaining("random or first-key");
    }

    static Table find(List<Table> tables, String name) {
        return tables.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aLowCardinalityStringColumnSharesOneInstancePerValueAndThread() {
        int threads = 2;
        Table lineitem =
                new TpchGenerator(SF, 0, 1, Placement.RANDOM, threads).generate(io.trino.tpch.TpchTable.LINE_ITEM);
        int shipmode = lineitem.schema().indexOf("l_shipmode");
        int comment = lineitem.schema().indexOf("l_comment");
        Set<String> modes = new HashSet<>();
        Set<String> modeInstances = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Set<String> commentInstances = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Batch batch : lineitem.batches()) {
            String[] modeValues = ((dev.faro.engine.vector.StringVector) batch.column(shipmode)).values();
            String[] commentValues = ((dev.faro.engine.vector.StringVector) batch.column(comment)).values();
            for (int row = 0; row < batch.rowCount(); row++) {
                modes.add(modeValues[row]);
                modeInstances.add(modeValues[row]);
                commentInstances.add(commentValues[row]);
            }
        }
        assertThat(modes).hasSize(7);
        assertThat(modeInstances.size()).isLessThanOrEqualTo(7 * threads);
        // a wide column keeps one instance per row past the dictionary's limit
        assertThat(commentInstances.size()).isGreaterThan(StringDictionary.MAX_ENTRIES * threads);
    }

    @Test
    void theDictionarySharesEqualValuesUntilItIsFull() {
        StringDictionary dictionary = new StringDictionary();
        String first = new String("MAIL");
        assertThat(dictionary.share(first)).isSameAs(first);
        assertThat(dictionary.share(new String("MAIL"))).isSameAs(first);
        assertThat(dictionary.share(null)).isNull();
        for (int i = 0; i <= StringDictionary.MAX_ENTRIES; i++) {
            dictionary.share("value " + i);
        }
        String late = new String("MAIL");
        String wide = new String("value 1");
        assertThat(dictionary.share(wide)).isSameAs(wide).isEqualTo("value 1");
        assertThat(dictionary.share(late)).isSameAs(late);
    }

    static List<List<Object>> rows(Table table) {
        List<List<Object>> rows = new ArrayList<>();
        for (Batch batch : table.batches()) {
            rows.addAll(batch.rows());
        }
        return rows;
    }
}
