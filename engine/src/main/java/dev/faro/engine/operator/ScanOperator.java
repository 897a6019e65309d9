package dev.faro.engine.operator;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Vector;
import java.util.ArrayList;
import java.util.List;

/**
 * Source: takes morsels from a shared {@link Morsels} dispenser and keeps the selected columns (no copy). Empty
 * morsels are skipped.
 */
public final class ScanOperator implements Operator {

    private final Morsels morsels;
    private final int[] columns;
    private boolean finished;

    ScanOperator(Morsels morsels, int[] columns) {
        this.morsels = morsels;
        this.columns = columns;
    }

    @Override
    public boolean needsInput() {
        return false;
    }

    @Override
    public void addInput(Batch batch) {
        throw new IllegalStateException("a scan takes no input");
    }

    @Override
    public Batch getOutput() {
        while (!finished) {
            Batch morsel = morsels.next();
            if (morsel == null) {
                finished = true;
                return null;
            }
            if (morsel.rowCount() == 0) {
                continue;
            }
            if (columns == null) {
                return morsel;
            }
            List<Vector> selected = new ArrayList<>(columns.length);
            for (int column : columns) {
                selected.add(morsel.column(column));
            }
            return new Batch(morsel.rowCount(), selected);
        }
        return null;
    }

    @Override
    public void finish() {}

    @Override
    public boolean isFinished() {
        return finished;
    }

    /** Scans {@code morsels}, keeping {@code columns} (null: all, as they are). */
    public record Factory(Morsels morsels, int[] columns) implements OperatorFactory {
        @Override
        public Operator create(int thread) {
            return new ScanOperator(morsels, columns);
        }
    }
}
