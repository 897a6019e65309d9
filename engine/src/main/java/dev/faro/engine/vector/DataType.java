package dev.faro.engine.vector;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Objects;

/**
 * A column type. {@code scale} is meaningful for DECIMAL only (the value is the unscaled long: 12.34 at scale 2 is
 * 1234); {@code maxLength} for VARCHAR only (maximum length in bytes; TPC-H strings are ASCII). Other kinds have both
 * at 0.
 *
 * <p>Storage: INTEGER and DATE (days since 1970-01-01) in {@link IntVector}, BIGINT and DECIMAL in {@link LongVector},
 * DOUBLE in {@link DoubleVector}, VARCHAR in {@link StringVector}, BOOLEAN in {@link BooleanVector}.
 */
public record DataType(TypeKind kind, int scale, int maxLength) {

    public static final DataType BOOLEAN = new DataType(TypeKind.BOOLEAN, 0, 0);
    public static final DataType INTEGER = new DataType(TypeKind.INTEGER, 0, 0);
    public static final DataType BIGINT = new DataType(TypeKind.BIGINT, 0, 0);
    public static final DataType DOUBLE = new DataType(TypeKind.DOUBLE, 0, 0);
    public static final DataType DATE = new DataType(TypeKind.DATE, 0, 0);

    /** Largest DECIMAL scale; 10^18 still fits a long. */
    public static final int MAX_SCALE = 18;

    public DataType {
        Objects.requireNonNull(kind, "kind is null");
        if (kind == TypeKind.DECIMAL) {
            if (scale < 0 || scale > MAX_SCALE) {
                throw new IllegalArgumentException("decimal scale out of range: scale=" + scale);
            }
        } else if (scale != 0) {
            throw new IllegalArgumentException("scale only applies to DECIMAL: kind=" + kind + " scale=" + scale);
        }
        if (kind == TypeKind.VARCHAR) {
            if (maxLength <= 0 || maxLength > 65_535) {
                throw new IllegalArgumentException("varchar maxLength out of range: maxLength=" + maxLength);
            }
        } else if (maxLength != 0) {
            throw new IllegalArgumentException(
                    "maxLength only applies to VARCHAR: kind=" + kind + " maxLength=" + maxLength);
        }
    }

    /** DECIMAL with the given scale (digits after the point); the value is the unscaled long. */
    public static DataType decimal(int scale) {
        return new DataType(TypeKind.DECIMAL, scale, 0);
    }

    /** VARCHAR of at most {@code maxLength} bytes. */
    public static DataType varchar(int maxLength) {
        return new DataType(TypeKind.VARCHAR, 0, maxLength);
    }

    /** Whether values are stored as {@code long} (BIGINT, DECIMAL). */
    @JsonIgnore
    public boolean isLong() {
        return kind == TypeKind.BIGINT || kind == TypeKind.DECIMAL;
    }

    /** Whether values are stored as {@code int} (INTEGER, DATE). */
    @JsonIgnore
    public boolean isInt() {
        return kind == TypeKind.INTEGER || kind == TypeKind.DATE;
    }

    /** Whether the type is numeric (INTEGER, BIGINT, DECIMAL, DOUBLE). */
    @JsonIgnore
    public boolean isNumeric() {
        return kind == TypeKind.INTEGER
                || kind == TypeKind.BIGINT
                || kind == TypeKind.DECIMAL
                || kind == TypeKind.DOUBLE;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(" + scale + ")";
            case VARCHAR -> "VARCHAR(" + maxLength + ")";
            default -> kind.name();
        };
    }
}
