package dev.faro.engine.exec;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Moves batches through one thread's chain of operators (source first, sink last) until the sink is finished, the
 * Trino way: for each neighbour pair, hand the upstream's output to the downstream when it needs input, and pass
 * {@code finish} down once an upstream is finished. An operator whose {@link Operator#isBlocked} is not
 * {@link Operator#NOT_BLOCKED} is skipped; when nothing moved and an operator is blocked, {@link #process} returns
 * that operator's stage instead of waiting, so that the thread runs other drivers meanwhile (the scheduler runs this
 * driver again once the stage completes). Once the sink is finished, a source that was told to finish early (a
 * limit) and is still blocked (an exchange source draining what is left) is waited for the same way. Runs on one
 * thread at a time (the scheduler hands it between threads through the stage's completion).
 */
final class Driver {

    private final Operator[] operators;
    private final boolean[] finishSent;
    private final QueryFailure failure;
    private final ProgressSignal signal;

    /** @param signal advanced after every step that moved a batch (what keeps waiting exchanges from a stall) */
    Driver(List<Operator> operators, QueryFailure failure, ProgressSignal signal) {
        this.operators = operators.toArray(new Operator[0]);
        this.finishSent = new boolean[this.operators.length];
        this.failure = failure;
        this.signal = signal;
    }

    /**
     * Moves batches until the sink is finished (returns null) or nothing can move while an operator is blocked
     * (returns its stage; call again once it completed).
     */
    CompletionStage<Void> process() {
        int last = operators.length - 1;
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
                continue;
            }
            if (blocked == null && !operators[last].isFinished()) {
                CompletionStage<Void> sinkBlocked = operators[last].isBlocked(); // a sink finishing its stream
                if (sinkBlocked != Operator.NOT_BLOCKED) {
                    blocked = sinkBlocked;
                }
            }
            if (blocked != null) {
                return blocked;
            }
            if (!operators[last].isFinished()) {
                Thread.onSpinWait();
            }
        }
        if (finishSent[0] && last > 0) {
            CompletionStage<Void> draining = operators[0].isBlocked();
            if (draining != Operator.NOT_BLOCKED) {
                return draining;
            }
        }
        return null;
    }
}
