package dev.faro.engine.exchange;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;

/**
 * One producing thread's exchange sink: partitions each batch on its key columns (hashes computed on the vectors),
 * sizes every row, and encodes the rows once, straight into the open transport buffer of their group; a group whose
 * next row does not fit is sent first ({@link ExchangeSender#send}), which waits for a free buffer or credit inside
 * the transport. {@link #finish} sends what is left and ends this thread's stream.
 *
 * <p>Thread-confined. Data path: allocation-free after warm-up (the per-row arrays grow only for a larger batch).
 */
final class ExchangeSinkOperator implements Operator {

    private final ExchangeSender sender;
    private final RowCodec codec;
    private final RowPartitioner partitioner;
    private final ShuffleExchange exchange;
    /** Each group's open payload (null: none open) and its fill level, mirrored from the sender. */
    private final MemorySegment[] payloads;

    private final int[] fill;
    private int[] groupOf = new int[1024];
    private int[] sizes = new int[1024];
    private int[] rowAt = new int[1024];
    private long rows;
    private long bytes;
    private boolean finished;

    ExchangeSinkOperator(
            ExchangeSender sender, RowCodec codec, RowPartitioner partitioner, int groups, ShuffleExchange exchange) {
        this.sender = sender;
        this.codec = codec;
        this.partitioner = partitioner;
        this.exchange = exchange;
        this.payloads = new MemorySegment[groups];
        this.fill = new int[groups];
    }

    @Override
    public boolean needsInput() {
        return !finished;
    }

    @Override
    public void addInput(Batch batch) {
        int count = batch.rowCount();
        if (count == 0) {
            return;
        }
        if (groupOf.length < count) {
            int grown = Math.max(count, groupOf.length * 2);
            groupOf = new int[grown];
            sizes = new int[grown];
            rowAt = new int[grown];
        }
        try {
            partitioner.groups(batch, count, groupOf);
            codec.rowSizes(batch, count, sizes);
            int start = 0;
            for (int r = 0; r < count; r++) {
                int group = groupOf[r];
                MemorySegment payload = payloads[group];
                if (payload == null) {
                    payload = open(group);
                }
                int size = sizes[r];
                if (fill[group] + size > payload.byteSize()) {
                    if (fill[group] == 0) {
                        throw exchange.rowTooLarge(size, payload.byteSize());
                    }
                    codec.encode(batch, start, r - start, payloads, groupOf, rowAt);
                    start = r;
                    sender.length(group, fill[group]);
                    sender.send(group);
                    payloads[group] = null;
                    payload = open(group);
                    if (size > payload.byteSize()) {
                        throw exchange.rowTooLarge(size, payload.byteSize());
                    }
                }
                rowAt[r] = fill[group];
                fill[group] += size;
                bytes += size;
            }
            codec.encode(batch, start, count - start, payloads, groupOf, rowAt);
            for (int group = 0; group < payloads.length; group++) {
                if (payloads[group] != null) {
                    sender.length(group, fill[group]);
                }
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
        rows += count;
    }

    private MemorySegment open(int group) {
        MemorySegment payload = sender.payload(group);
        payloads[group] = payload;
        fill[group] = sender.length(group);
        return payload;
    }

    @Override
    public Batch getOutput() {
        return null;
    }

    @Override
    public void finish() {
        if (!finished) {
            finished = true;
            exchange.addSent(rows, bytes);
            try {
                sender.finish();
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
