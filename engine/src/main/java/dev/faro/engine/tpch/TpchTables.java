package dev.faro.engine.tpch;

import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchTable;
import java.util.List;
import java.util.Locale;

/**
 * The eight TPC-H tables as Faro schemas, derived from {@code io.trino.tpch}'s column metadata: identifiers are
 * BIGINT, integers INTEGER, dates DATE (days since 1970-01-01), money, quantities, discounts and taxes DECIMAL with
 * scale 2 (TPC-H's DECIMAL(15,2); the generator hands them out as doubles with two decimals), strings VARCHAR with the
 * specification's maximum length. Column names are TPC-H's ({@code l_orderkey}, {@code o_orderdate}, ...).
 */
public final class TpchTables {

    /** Scale of every TPC-H decimal column. */
    public static final int DECIMAL_SCALE = 2;

    /** The tables in generation order; a table's position here is its ordinal for {@link Placement}. */
    public static final List<TpchTable<?>> ALL = List.copyOf(TpchTable.getTables());

    private TpchTables() {}

    /** The table called {@code name} (case-insensitive); the error lists the table names. */
    public static TpchTable<?> table(String name) {
        for (TpchTable<?> table : ALL) {
            if (table.getTableName().equalsIgnoreCase(name)) {
                return table;
            }
        }
        throw new IllegalArgumentException("unknown TPC-H table '" + name + "'; tables: "
                + ALL.stream().map(TpchTable::getTableName).toList());
    }

    /** Whether the table is replicated to every node (NATION and REGION, 25 and 5 rows). */
    public static boolean replicated(TpchTable<?> table) {
        return table == TpchTable.NATION || table == TpchTable.REGION;
    }

    public static int ordinal(TpchTable<?> table) {
        return ALL.indexOf(table);
    }

    /** The Faro schema of a TPC-H table. */
    public static Schema schema(TpchTable<?> table) {
        return new Schema(table.getColumns().stream()
                .map(column -> new Column(column.getColumnName().toLowerCase(Locale.ROOT), type(column)))
                .toList());
    }

    /** The Faro type of a TPC-H column. */
    public static DataType type(TpchColumn<?> column) {
        TpchColumnType type = column.getType();
        return switch (type.getBase()) {
            case IDENTIFIER -> DataType.BIGINT;
            case INTEGER -> DataType.INTEGER;
            case DATE -> DataType.DATE;
            case DOUBLE -> DataType.decimal(DECIMAL_SCALE);
            case VARCHAR -> DataType.varchar(Math.toIntExact(type.getPrecision().orElseThrow()));
        };
    }
}
