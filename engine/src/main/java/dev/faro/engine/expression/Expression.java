package dev.faro.engine.expression;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A scalar expression: an immutable record, JSON-serializable (the {@code "@kind"} property names the record). Build
 * them with the static factories of {@link Expressions}; compile them against an input schema with
 * {@link ExpressionCompiler} to evaluate over batches.
 *
 * <p>Typing rules (see {@link ExpressionTypes}): exact arithmetic on INTEGER, BIGINT and DECIMAL runs on longs (sum
 * and difference keep the larger scale, a product adds the scales, overflow fails); anything with a DOUBLE is DOUBLE;
 * division always yields DOUBLE (NULL when dividing by zero). Comparisons bring both sides to a common type.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "@kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ColumnReference.class, name = "column"),
    @JsonSubTypes.Type(value = Literal.class, name = "literal"),
    @JsonSubTypes.Type(value = Arithmetic.class, name = "arithmetic"),
    @JsonSubTypes.Type(value = Comparison.class, name = "comparison"),
    @JsonSubTypes.Type(value = And.class, name = "and"),
    @JsonSubTypes.Type(value = Or.class, name = "or"),
    @JsonSubTypes.Type(value = Not.class, name = "not"),
    @JsonSubTypes.Type(value = IsNull.class, name = "isNull"),
    @JsonSubTypes.Type(value = InList.class, name = "in"),
    @JsonSubTypes.Type(value = Between.class, name = "between"),
    @JsonSubTypes.Type(value = Like.class, name = "like"),
    @JsonSubTypes.Type(value = Case.class, name = "case"),
    @JsonSubTypes.Type(value = ExtractYear.class, name = "year"),
    @JsonSubTypes.Type(value = Substring.class, name = "substring"),
    @JsonSubTypes.Type(value = Cast.class, name = "cast")
})
public sealed interface Expression
        permits ColumnReference,
                Literal,
                Arithmetic,
                Comparison,
                And,
                Or,
                Not,
                IsNull,
                InList,
                Between,
                Like,
                Case,
                ExtractYear,
                Substring,
                Cast {}
