package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import java.util.concurrent.atomic.AtomicLong;

/** Passes at most {@code count} rows in total over all the pipeline's threads (a shared countdown). */
public final class LimitOperator extends StreamingOperator {

    private final AtomicLong remaining;
    private boolean exhausted;

    LimitOperator(AtomicLong remaining) {
        this.remaining = remaining;
    }

    @Override
    protected Batch process(Batch batch) {
        long left;
        int take;
        do {
            left = remaining.get();
            take = (int) Math.min(left, batch.rowCount());
        } while (take > 0 && !remaining.compareAndSet(left, left - take));
        if (take <= 0) {
            exhausted = true;
            return null;
        }
        if (left - take == 0) {
            exhausted = true;
        }
        return take == batch.rowCount() ? batch : new Batch(take, batch.columns());
    }

    @Override
    public boolean needsInput() {
        return !exhausted && super.needsInput();
    }

    @Override
    public boolean isFinished() {
        return super.isFinished() || exhausted && !hasPending();
    }

    /** A limit of {@code count} rows shared by every driver created by this factory. */
    public static final class Factory implements OperatorFactory {
        private final AtomicLong remaining;

        public Factory(long count) {
            this.remaining = new AtomicLong(count);
        }

        @Override
        public Operator create(int thread) {
            return new LimitOperator(remaining);
        }
    }
}
