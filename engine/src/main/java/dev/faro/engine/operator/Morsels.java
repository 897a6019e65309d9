package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The shared morsel dispenser of a pipeline's source: hands out the batches of a list, each to exactly one thread.
 * The list is resolved on first use (it may be the product of an earlier pipeline). Thread-safe.
 */
public final class Morsels {

    private final Supplier<List<Batch>> batches;
    private final AtomicInteger next = new AtomicInteger();
    private volatile List<Batch> resolved;

    public Morsels(Supplier<List<Batch>> batches) {
        this.batches = Objects.requireNonNull(batches, "batches is null");
    }

    /** The next morsel, or null when all are taken. */
    public Batch next() {
        List<Batch> list = resolved;
        if (list == null) {
            synchronized (this) {
                if (resolved == null) {
                    resolved = List.copyOf(batches.get());
                }
                list = resolved;
            }
        }
        int index = next.getAndIncrement();
        return index < list.size() ? list.get(index) : null;
    }
}
