package dev.faro.engine.exec;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Moves batches through one thread's chain of operators (source first, sink last) until the sink is finished, the
 * Trino way: for each neighbour pair, hand the upstream's output to the downstream when it needs input, and pass
 * {@code finish} down once an upstream is finished. An operator whose {@link Operator#isBlocked} is not
 * {@link Operator#NOT_BLOCKED} is skipped; when nothing moved and an operator is blocked, the driver waits for that
 * operator's stage (in short slices, checking the query's failure) instead of spinning. Thread-confined.
 */
final class Driver {

    /** How long one wait for a blocked operator lasts before the query's failure is checked again. */
    private static final long BLOCKED_SLICE_MILLIS = 20;

    private final Operator[] operators;
    private final QueryFailure failure;
    private final ProgressSignal signal;

    /** @param signal advanced after every step that moved a batch (what keeps waiting exchanges from a stall) */
    Driver(List<Operator> operators, QueryFailure failure, ProgressSignal signal) {
        this.operators = operators.toArray(new Operator[0]);
        this.failure = failure;
        this.signal = signal;
    }

    void run() {
        int last = operators.length - 1;
        boolean[] finishSent = new boolean[operators.length];
        while (!operators[last].isFinished()) {
            failure.check();
            boolean progress = false;
            CompletionStage<Void> blocked = null;
            for (int i = 0; i < last; i++) {
                Operator current = operators[i];
                Operator next = operators[i + 1];
                if (finishSent[i + 1]) {
                    continue;
                }
                if (next.isFinished()) {
                    // downstream wants no more (a limit): finish everything upstream of it
                    for (int j = 0; j <= i; j++) {
                        if (!finishSent[j]) {
                            operators[j].finish();
                            finishSent[j] = true;
                        }
                    }
                    continue;
                }
                CompletionStage<Void> currentBlocked = current.isBlocked();
                CompletionStage<Void> nextBlocked = next.isBlocked();
                if (currentBlocked != Operator.NOT_BLOCKED || nextBlocked != Operator.NOT_BLOCKED) {
                    blocked = currentBlocked != Operator.NOT_BLOCKED ? currentBlocked : nextBlocked;
                    continue;
                }
                if (next.needsInput()) {
                    Batch batch = current.getOutput();
                    if (batch != null) {
                        next.addInput(batch);
                        progress = true;
                    }
                }
                if (current.isFinished() && !finishSent[i + 1]) {
                    next.finish();
                    finishSent[i + 1] = true;
                    progress = true;
                }
            }
            if (progress) {
                signal.advance();
            } else if (blocked != null) {
                await(blocked);
            } else if (!operators[last].isFinished()) {
                Thread.onSpinWait();
            }
        }
    }

    private void await(CompletionStage<Void> blocked) {
        try {
            blocked.toCompletableFuture().get(BLOCKED_SLICE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // still blocked: check the query's failure and look again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a driver waited", e);
        } catch (java.util.concurrent.ExecutionException e) {
            // the operator reports its failure on its next call
        }
    }
}
