package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;

/**
 * A vectorized operator (Trino's contract). A driver moves batches between neighbours:
 * <ul>
 *   <li>{@link #addInput} only when {@link #needsInput} is true (and never after {@link #finish});</li>
 *   <li>{@link #getOutput} any time; null when nothing is ready;</li>
 *   <li>{@link #finish} once the upstream has no more input (may be called more than once);</li>
 *   <li>{@link #isFinished} true once no more output will come; the driver then stops calling it.</li>
 * </ul>
 * Instances are created per driver by an {@link OperatorFactory} and are thread-confined. Output batches are never
 * modified after they are returned (downstream operators may keep them).
 */
public interface Operator {

    boolean needsInput();

    void addInput(Batch batch);

    Batch getOutput();

    void finish();

    boolean isFinished();
}
