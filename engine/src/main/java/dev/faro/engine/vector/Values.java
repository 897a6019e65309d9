package dev.faro.engine.vector;

import java.math.BigDecimal;
import java.time.LocalDate;

/** Human-readable rendering of stored values (coordination and printing only; allocates). */
public final class Values {

    private Values() {}

    /**
     * {@code value} (as returned by {@link Vector#getObject}) of {@code type} as text: DECIMAL at its scale
     * ({@code 12.34}), DATE as ISO ({@code 1995-03-15}), NULL as {@code NULL}, everything else by {@code toString}.
     */
    public static String format(DataType type, Object value) {
        if (value == null) {
            return "NULL";
        }
        return switch (type.kind()) {
            case DECIMAL -> BigDecimal.valueOf((Long) value, type.scale()).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) value).toString();
            default -> value.toString();
        };
    }

    /** {@code value} of {@code type} as a plain Java value: DECIMAL as {@link BigDecimal}, DATE as a LocalDate. */
    public static Object toJava(DataType type, Object value) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case DECIMAL -> BigDecimal.valueOf((Long) value, type.scale());
            case DATE -> LocalDate.ofEpochDay((Integer) value);
            default -> value;
        };
    }
}
