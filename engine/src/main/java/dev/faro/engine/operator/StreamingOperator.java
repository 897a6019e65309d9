package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;

/** Base of one-batch-in, at-most-one-batch-out operators (filter, project, limit, probe). */
abstract class StreamingOperator implements Operator {

    private Batch pending;
    private boolean finishing;

    /** The output for {@code batch}, or null when it yields no rows. */
    protected abstract Batch process(Batch batch);

    @Override
    public boolean needsInput() {
        return !finishing && pending == null;
    }

    @Override
    public void addInput(Batch batch) {
        if (pending != null || finishing) {
            throw new IllegalStateException(
                    "input not needed now: operator=" + getClass().getSimpleName());
        }
        Batch output = process(batch);
        pending = output == null || output.rowCount() == 0 ? null : output;
    }

    @Override
    public Batch getOutput() {
        Batch output = pending;
        pending = null;
        return output;
    }

    /** Whether an output batch waits to be taken. */
    protected final boolean hasPending() {
        return pending != null;
    }

    @Override
    public void finish() {
        finishing = true;
    }

    @Override
    public boolean isFinished() {
        return finishing && pending == null;
    }
}
