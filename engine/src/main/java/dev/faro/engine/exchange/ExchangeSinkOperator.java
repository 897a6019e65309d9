package dev.faro.engine.exchange;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.operator.ShuffleSink;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread's SHUFFLE operator: encodes each batch into a reusable staging segment, chunk by chunk, and hands the
 * rows to its {@link ShuffleSink.Writer} (which partitions and copies them into registered buffers, blocking while
 * no buffer or credit is free). {@link #finish} flushes and ends this thread's stream. Data path: allocation-free.
 */
final class ExchangeSinkOperator implements Operator {

    private static final int CHUNK_BYTES = 256 * 1024;

    private final ShuffleSink.Writer writer;
    private final RowCodec codec;
    private final AtomicLong rowsSent;
    private final ShuffleExchange exchange;
    private final MemorySegment staging;
    private final int chunkRows;
    private boolean finished;

    /** @param exchange names this exchange in a shuffle failure's message */
    ExchangeSinkOperator(ShuffleSink.Writer writer, RowCodec codec, AtomicLong rowsSent, ShuffleExchange exchange) {
        this.writer = writer;
        this.codec = codec;
        this.rowsSent = rowsSent;
        this.exchange = exchange;
        this.chunkRows = Math.max(1, CHUNK_BYTES / codec.rowBytes());
        this.staging = Arena.ofAuto().allocate((long) chunkRows * codec.rowBytes(), 8);
    }

    @Override
    public boolean needsInput() {
        return !finished;
    }

    @Override
    public void addInput(Batch batch) {
        int rows = batch.rowCount();
        try {
            for (int from = 0; from < rows; from += chunkRows) {
                int count = Math.min(chunkRows, rows - from);
                codec.encode(batch, from, count, staging);
                writer.add(staging, 0, count);
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
        rowsSent.addAndGet(rows);
    }

    @Override
    public Batch getOutput() {
        return null;
    }

    @Override
    public void finish() {
        if (!finished) {
            finished = true;
            try {
                writer.finish();
            } catch (FaroException e) {
                throw (FaroException) exchange.named(e);
            }
        }
    }

    @Override
    public boolean isFinished() {
        return finished;
    }
}
