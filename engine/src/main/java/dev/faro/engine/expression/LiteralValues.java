package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;

/** Parsing of {@link Literal} text into stored values. Coordination code (compile time). */
final class LiteralValues {

    private LiteralValues() {}

    static void validate(DataType type, String text) {
        try {
            switch (type.kind()) {
                case BIGINT, INTEGER, DECIMAL, DATE -> longValue(type, text);
                case DOUBLE -> Double.parseDouble(text);
                case BOOLEAN -> booleanValue(text);
                case VARCHAR -> {
                    if (text.length() > type.maxLength()) {
                        throw new IllegalArgumentException("longer than " + type.maxLength());
                    }
                }
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "bad literal: type=" + type + " value=" + text + ": " + e.getMessage(), e);
        }
    }

    /** The stored value of an INTEGER, BIGINT, DECIMAL (unscaled) or DATE (epoch day) literal. */
    static long longValue(DataType type, String text) {
        return switch (type.kind()) {
            case INTEGER -> Integer.parseInt(text.strip());
            case BIGINT -> Long.parseLong(text.strip());
            case DECIMAL ->
                new BigDecimal(text.strip())
                        .setScale(type.scale())
                        .unscaledValue()
                        .longValueExact();
            case DATE -> LocalDate.parse(text.strip()).toEpochDay();
            default -> throw new IllegalArgumentException("not an exact type: type=" + type);
        };
    }

    static boolean booleanValue(String text) {
        return switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("not a boolean: value=" + text);
        };
    }
}
