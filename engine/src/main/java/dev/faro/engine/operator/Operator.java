package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A vectorized operator (Trino's contract). A driver moves batches between neighbours:
 * <ul>
 *   <li>{@link #addInput} only when {@link #needsInput} is true (and never after {@link #finish});</li>
 *   <li>{@link #getOutput} any time; null when nothing is ready;</li>
 *   <li>{@link #finish} once the upstream has no more input (may be called more than once);</li>
 *   <li>{@link #isFinished} true once no more output will come; the driver then stops calling it;</li>
 *   <li>{@link #isBlocked} any time: {@link #NOT_BLOCKED} (the shared constant, compared by identity) when the
 *       operator can make progress, else a stage that completes once it can (input or room arrived); the driver then
 *       stops calling the operator until it completes.</li>
 * </ul>
 * Instances are created per driver by an {@link OperatorFactory} and are thread-confined. Output batches are never
 * modified after they are returned (downstream operators may keep them).
 */
public interface Operator {

    /** What {@link #isBlocked} returns when the operator is not blocked; shared, never allocated per call. */
    CompletionStage<Void> NOT_BLOCKED = CompletableFuture.completedStage(null);

    /**
     * Trino's {@code isBlocked}: {@link #NOT_BLOCKED}, or a stage completing when the operator can move again. The
     * default never blocks; operators waiting on something outside the driver (a buffer, credit, data) override it.
     */
    default CompletionStage<Void> isBlocked() {
        return NOT_BLOCKED;
    }

    boolean needsInput();

    void addInput(Batch batch);

    Batch getOutput();

    void finish();

    boolean isFinished();
}
