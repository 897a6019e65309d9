package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;

/** The result type of an expression over an input schema, and the engine's type promotion rules. */
public final class ExpressionTypes {

    private ExpressionTypes() {}

    /** The type {@code expression} evaluates to over rows of {@code input}; fails on ill-typed expressions. */
    public static DataType typeOf(Expression expression, Schema input) {
        return switch (expression) {
            case ColumnReference c -> input.column(c.name()).type();
            case Literal l -> l.type();
            case Arithmetic a -> arithmetic(a.operator(), typeOf(a.left(), input), typeOf(a.right(), input));
            case Comparison c -> {
                comparisonDomain(typeOf(c.left(), input), typeOf(c.right(), input));
                yield DataType.BOOLEAN;
            }
            case And a -> booleans(a.terms(), input);
            case Or o -> booleans(o.terms(), input);
            case Not n -> {
                requireBoolean(n.operand(), input);
                yield DataType.BOOLEAN;
            }
            case IsNull n -> {
                typeOf(n.operand(), input);
                yield DataType.BOOLEAN;
            }
            case InList in -> {
                DataType value = typeOf(in.value(), input);
                for (Expression element : in.list()) {
                    comparisonDomain(value, typeOf(element, input));
                }
                yield DataType.BOOLEAN;
            }
            case Between b -> {
                DataType value = typeOf(b.value(), input);
                comparisonDomain(value, typeOf(b.low(), input));
                comparisonDomain(value, typeOf(b.high(), input));
                yield DataType.BOOLEAN;
            }
            case Like l -> {
                require(typeOf(l.value(), input).kind() == TypeKind.VARCHAR, "LIKE needs a VARCHAR", l);
                yield DataType.BOOLEAN;
            }
            case Case c -> {
                DataType result = null;
                for (Case.When when : c.whens()) {
                    requireBoolean(when.condition(), input);
                    result = merge(result, when.value(), input);
                }
                result = merge(result, c.otherwise(), input);
                yield result == null ? typeOf(c.otherwise(), input) : result;
            }
            case ExtractYear y -> {
                require(typeOf(y.date(), input).kind() == TypeKind.DATE, "EXTRACT(YEAR) needs a DATE", y);
                yield DataType.INTEGER;
            }
            case Substring s -> {
                DataType value = typeOf(s.value(), input);
                require(value.kind() == TypeKind.VARCHAR, "SUBSTRING needs a VARCHAR", s);
                yield DataType.varchar(Math.min(s.length(), value.maxLength()));
            }
            case Cast c -> {
                require(typeOf(c.operand(), input).isNumeric(), "CAST needs a numeric operand", c);
                yield c.type();
            }
        };
    }

    private static DataType merge(DataType result, Expression value, Schema input) {
        DataType type = typeOf(value, input);
        if (value instanceof Literal literal && literal.value() == null) {
            return result; // a NULL literal takes any type
        }
        return result == null ? type : commonType(result, type);
    }

    private static DataType booleans(java.util.List<Expression> terms, Schema input) {
        for (Expression term : terms) {
            requireBoolean(term, input);
        }
        return DataType.BOOLEAN;
    }

    private static void requireBoolean(Expression expression, Schema input) {
        require(typeOf(expression, input).kind() == TypeKind.BOOLEAN, "expected a BOOLEAN", expression);
    }

    private static void require(boolean condition, String message, Expression expression) {
        if (!condition) {
            throw new IllegalArgumentException(message + ": expression=" + expression);
        }
    }

    /** The scale of a type (0 for anything but DECIMAL). */
    static int scale(DataType type) {
        return type.kind() == TypeKind.DECIMAL ? type.scale() : 0;
    }

    static boolean isExact(DataType type) {
        return type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT || type.kind() == TypeKind.DECIMAL;
    }

    /** The result type of an arithmetic operation. */
    static DataType arithmetic(Arithmetic.Operator operator, DataType left, DataType right) {
        if (left.kind() == TypeKind.DATE
                && isExact(right)
                && scale(right) == 0
                && (operator == Arithmetic.Operator.ADD || operator == Arithmetic.Operator.SUBTRACT)) {
            return DataType.DATE;
        }
        if (!left.isNumeric() || !right.isNumeric()) {
            throw new IllegalArgumentException("arithmetic needs numbers: " + left + " " + operator + " " + right);
        }
        if (operator == Arithmetic.Operator.DIVIDE
                || left.kind() == TypeKind.DOUBLE
                || right.kind() == TypeKind.DOUBLE) {
            return DataType.DOUBLE;
        }
        int scale = operator == Arithmetic.Operator.MULTIPLY
                ? scale(left) + scale(right)
                : Math.max(scale(left), scale(right));
        if (scale > DataType.MAX_SCALE) {
            throw new IllegalArgumentException("decimal scale overflow: " + left + " " + operator + " " + right);
        }
        boolean decimal = left.kind() == TypeKind.DECIMAL || right.kind() == TypeKind.DECIMAL;
        return decimal ? DataType.decimal(scale) : DataType.BIGINT;
    }

    /** The type both sides of a comparison are brought to; fails when they cannot be compared. */
    static DataType comparisonDomain(DataType left, DataType right) {
        if (left.kind() == TypeKind.VARCHAR && right.kind() == TypeKind.VARCHAR) {
            return DataType.varchar(Math.max(left.maxLength(), right.maxLength()));
        }
        if (left.kind() == right.kind() && (left.kind() == TypeKind.DATE || left.kind() == TypeKind.BOOLEAN)) {
            return left;
        }
        if (left.isNumeric() && right.isNumeric()) {
            return commonType(left, right);
        }
        throw new IllegalArgumentException("cannot compare " + left + " with " + right);
    }

    /** The common supertype of two types (numeric promotion, wider VARCHAR), or failure. */
    public static DataType commonType(DataType left, DataType right) {
        if (left.equals(right)) {
            return left;
        }
        if (left.kind() == TypeKind.VARCHAR && right.kind() == TypeKind.VARCHAR) {
            return DataType.varchar(Math.max(left.maxLength(), right.maxLength()));
        }
        if (left.isNumeric() && right.isNumeric()) {
            if (left.kind() == TypeKind.DOUBLE || right.kind() == TypeKind.DOUBLE) {
                return DataType.DOUBLE;
            }
            if (left.kind() == TypeKind.DECIMAL || right.kind() == TypeKind.DECIMAL) {
                return DataType.decimal(Math.max(scale(left), scale(right)));
            }
            return DataType.BIGINT;
        }
        throw new IllegalArgumentException("no common type of " + left + " and " + right);
    }
}
