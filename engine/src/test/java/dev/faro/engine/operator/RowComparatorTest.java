package dev.faro.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.plan.SortKey;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.StringVector;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A top-N's bounded selection ({@link RowComparator#sortFirst}) keeps exactly the first rows of the full stable sort:
 * many ties (also across the cut), NULLs first and last, both directions, k from 0 to all rows, no rows.
 */
class RowComparatorTest {

    private static final Schema SCHEMA =
            Schema.of(new Column("a", DataType.INTEGER), new Column("s", DataType.varchar(3)));

    @Test
    void theFirstKRowsAreTheFirstKOfTheFullSort() {
        Random random = new Random(31);
        List<List<SortKey>> orders = List.of(
                List.of(new SortKey("a", false, false)),
                List.of(new SortKey("a", true, true), new SortKey("s", false, false)),
                List.of(new SortKey("s", true, false), new SortKey("a", false, true)));
        for (int n : new int[] {0, 1, 9, 1000, 20_000}) {
            Batch rows = rows(random, n);
            for (List<SortKey> keys : orders) {
                int[] all = identity(n);
                new RowComparator(rows, SCHEMA, keys).sort(all, n);
                for (int k : new int[] {0, 1, 3, 10, 100, n / 8, n / 8 + 1, n}) {
                    if (k > n) {
                        continue;
                    }
                    int[] first = identity(n);
                    new RowComparator(rows, SCHEMA, keys).sortFirst(first, n, k);
                    assertThat(Arrays.copyOf(first, k))
                            .as("n %d, k %d, keys %s", n, k, keys)
                            .isEqualTo(Arrays.copyOf(all, k));
                }
            }
        }
    }

    private static int[] identity(int n) {
        int[] index = new int[n];
        for (int i = 0; i < n; i++) {
            index[i] = i;
        }
        return index;
    }

    /** Few distinct values (many ties), one in twelve NULL in each column. */
    private static Batch rows(Random random, int n) {
        int[] ints = new int[n];
        boolean[] nulls = new boolean[n];
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            ints[i] = random.nextInt(20);
            nulls[i] = random.nextInt(12) == 0;
            strings[i] = random.nextInt(12) == 0 ? null : "s" + random.nextInt(5);
        }
        return Batch.of(
                n, new IntVector(DataType.INTEGER, ints, nulls), new StringVector(DataType.varchar(3), strings));
    }
}
