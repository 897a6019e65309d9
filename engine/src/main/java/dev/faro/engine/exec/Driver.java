package dev.faro.engine.exec;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.util.List;

/**
 * Moves batches through one thread's chain of operators (source first, sink last) until the sink is finished, the
 * Trino way: for each neighbour pair, hand the upstream's output to the downstream when it needs input, and pass
 * {@code finish} down once an upstream is finished. Thread-confined; checks the query's failure between steps.
 */
final class Driver {

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
            } else if (!operators[last].isFinished()) {
                Thread.onSpinWait();
            }
        }
    }
}
