package dev.faro.engine.operator;

import dev.faro.engine.expression.Evaluator;
import dev.faro.engine.expression.Expression;
import dev.faro.engine.expression.ExpressionCompiler;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.Vector;
import java.util.ArrayList;
import java.util.List;

/** Evaluates one expression per output column. */
public final class ProjectOperator extends StreamingOperator {

    private final Evaluator[] evaluators;

    ProjectOperator(List<Expression> expressions, Schema input) {
        evaluators = new Evaluator[expressions.size()];
        for (int i = 0; i < evaluators.length; i++) {
            evaluators[i] = ExpressionCompiler.compile(expressions.get(i), input);
        }
    }

    @Override
    protected Batch process(Batch batch) {
        List<Vector> columns = new ArrayList<>(evaluators.length);
        for (Evaluator evaluator : evaluators) {
            columns.add(evaluator.evaluate(batch));
        }
        return new Batch(batch.rowCount(), columns);
    }

    /** Projects batches of {@code input} through {@code expressions}. */
    public record Factory(List<Expression> expressions, Schema input) implements OperatorFactory {
        public Factory {
            expressions = List.copyOf(expressions);
        }

        @Override
        public Operator create(int thread) {
            return new ProjectOperator(expressions, input);
        }
    }
}
