package dev.faro.engine.expression;

import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import java.util.ArrayList;
import java.util.List;

/** Compiles an {@link Expression} against an input schema into an {@link Evaluator}. Coordination code. */
public final class ExpressionCompiler {

    private ExpressionCompiler() {}

    /** A new, thread-confined evaluator of {@code expression} over batches of {@code input}. */
    public static Evaluator compile(Expression expression, Schema input) {
        ExpressionTypes.typeOf(expression, input); // type-check the whole tree first, with good messages
        return build(expression, input);
    }

    private static Evaluator build(Expression expression, Schema input) {
        return switch (expression) {
            case ColumnReference c ->
                new ColumnEvaluator(
                        input.indexOf(c.name()), input.column(c.name()).type());
            case Literal l -> new ConstantEvaluator(l);
            case Arithmetic a -> new ArithmeticEvaluator(a.operator(), build(a.left(), input), build(a.right(), input));
            case Comparison c -> new ComparisonEvaluator(c.operator(), build(c.left(), input), build(c.right(), input));
            case And a -> new LogicalEvaluator(LogicalEvaluator.Kind.AND, all(a.terms(), input));
            case Or o -> new LogicalEvaluator(LogicalEvaluator.Kind.OR, all(o.terms(), input));
            case Not n -> new LogicalEvaluator(LogicalEvaluator.Kind.NOT, List.of(build(n.operand(), input)));
            case IsNull n -> new IsNullEvaluator(build(n.operand(), input));
            case InList in -> {
                List<Literal> literals = new ArrayList<>();
                for (Expression element : in.list()) {
                    literals.add((Literal) element);
                }
                yield new InListEvaluator(build(in.value(), input), literals);
            }
            case Between b ->
                new LogicalEvaluator(
                        LogicalEvaluator.Kind.AND,
                        List.of(
                                new ComparisonEvaluator(
                                        Comparison.Operator.GREATER_THAN_OR_EQUAL,
                                        build(b.value(), input),
                                        build(b.low(), input)),
                                new ComparisonEvaluator(
                                        Comparison.Operator.LESS_THAN_OR_EQUAL,
                                        build(b.value(), input),
                                        build(b.high(), input))));
            case Like l -> new LikeEvaluator(build(l.value(), input), l.pattern());
            case Case c -> {
                DataType type = ExpressionTypes.typeOf(c, input);
                List<Evaluator> conditions = new ArrayList<>();
                List<Evaluator> values = new ArrayList<>();
                for (Case.When when : c.whens()) {
                    conditions.add(build(when.condition(), input));
                    values.add(build(typedNull(when.value(), type), input));
                }
                values.add(build(typedNull(c.otherwise(), type), input));
                yield new CaseEvaluator(conditions, values, type);
            }
            case ExtractYear y ->
                new UnaryEvaluator(UnaryEvaluator.Function.YEAR, build(y.date(), input), DataType.INTEGER, 0, 0);
            case Substring s ->
                new UnaryEvaluator(
                        UnaryEvaluator.Function.SUBSTRING,
                        build(s.value(), input),
                        ExpressionTypes.typeOf(s, input),
                        s.start(),
                        s.length());
            case Cast c -> new UnaryEvaluator(UnaryEvaluator.Function.CAST, build(c.operand(), input), c.type(), 0, 0);
        };
    }

    private static Expression typedNull(Expression value, DataType type) {
        return value instanceof Literal literal && literal.value() == null ? new Literal(type, null) : value;
    }

    private static List<Evaluator> all(List<Expression> expressions, Schema input) {
        List<Evaluator> evaluators = new ArrayList<>();
        for (Expression expression : expressions) {
            evaluators.add(build(expression, input));
        }
        return evaluators;
    }
}
