package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A sink that keeps every batch (a materialized intermediate or the query result); thread order is kept within a
 * thread, and threads' lists are concatenated by thread index.
 */
public final class CollectOperator implements Operator {

    private final Factory factory;
    private final int thread;
    private final List<Batch> batches = new ArrayList<>();
    private boolean finished;

    private CollectOperator(Factory factory, int thread) {
        this.factory = factory;
        this.thread = thread;
    }

    @Override
    public boolean needsInput() {
        return !finished;
    }

    @Override
    public void addInput(Batch batch) {
        if (batch.rowCount() > 0) {
            batches.add(batch);
        }
    }

    @Override
    public Batch getOutput() {
        return null;
    }

    @Override
    public void finish() {
        if (!finished) {
            finished = true;
            factory.collected.add(new Part(thread, batches));
        }
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    private record Part(int thread, List<Batch> batches) {}

    /** Collects a pipeline's output; {@link #output()} after {@link #complete}. */
    public static final class Factory implements SinkFactory {
        private final Queue<Part> collected = new ConcurrentLinkedQueue<>();
        private volatile List<Batch> output;

        @Override
        public Operator create(int thread) {
            return new CollectOperator(this, thread);
        }

        @Override
        public void complete(int threads) {
            List<Part> parts = new ArrayList<>(collected);
            parts.sort((a, b) -> Integer.compare(a.thread(), b.thread()));
            List<Batch> all = new ArrayList<>();
            for (Part part : parts) {
                all.addAll(part.batches());
            }
            output = List.copyOf(all);
        }

        public List<Batch> output() {
            List<Batch> result = output;
            if (result == null) {
                throw new IllegalStateException("the collection has not completed");
            }
            return result;
        }
    }
}
