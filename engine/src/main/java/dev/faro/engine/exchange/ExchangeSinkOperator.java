package dev.faro.engine.exchange;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletionStage;

/**
 * One producing thread's exchange sink: partitions each batch on its key columns (hashes computed on the vectors),
 * sizes every row, and encodes the rows once, straight into the open transport buffer of their group; a group whose
 * next row does not fit is sent first. It never waits inside the transport: when no buffer is free or the transport
 * has no credit for a send ({@link ExchangeSender#tryPayload}, {@link ExchangeSender#trySend}), the batch stays
 * pending at its row, {@link #isBlocked} returns the sender's readiness stage and the driver yields its thread; once
 * the stage completes, {@link #isBlocked} carries on from that row. {@link #finish} sends what is left and ends this
 * thread's stream the same way ({@link ExchangeSender#tryFinish}).
 *
 * <p>Thread-confined. Data path: allocation-free after warm-up (the per-row arrays grow only for a larger batch; a
 * wait allocates its stage).
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
    /** The batch being encoded (null: none); its next row to place and the first row not encoded yet. */
    private Batch pending;

    private int row;
    private int start;
    private boolean finishing;
    private boolean finished;
    private CompletionStage<Void> blocked = NOT_BLOCKED;

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
    public CompletionStage<Void> isBlocked() {
        if (blocked != NOT_BLOCKED) {
            if (!blocked.toCompletableFuture().isDone()) {
                return blocked;
            }
            blocked = NOT_BLOCKED;
            if (pending != null) {
                encode();
            }
            if (pending == null && finishing && !finished) {
                tryFinish();
            }
        }
        return blocked;
    }

    @Override
    public boolean needsInput() {
        return !finishing && pending == null && blocked == NOT_BLOCKED;
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
        partitioner.groups(batch, count, groupOf);
        codec.rowSizes(batch, count, sizes);
        pending = batch;
        row = 0;
        start = 0;
        encode();
    }

    /** Places and encodes {@link #pending}'s rows from {@link #row} on; stops (blocked) when the transport cannot. */
    private void encode() {
        Batch batch = pending;
        int count = batch.rowCount();
        try {
            for (; row < count; row++) {
                int r = row;
                int group = groupOf[r];
                MemorySegment payload = payloads[group];
                if (payload == null && (payload = open(group)) == null) {
                    return;
                }
                int size = sizes[r];
                if (fill[group] + size > payload.byteSize()) {
                    if (fill[group] == 0) {
                        throw exchange.rowTooLarge(size, payload.byteSize());
                    }
                    if (r > start) {
                        codec.encode(batch, start, r - start, payloads, groupOf, rowAt);
                        start = r;
                    }
                    sender.length(group, fill[group]);
                    if (!sender.trySend(group)) {
                        blocked = sender.whenReady();
                        return;
                    }
                    payloads[group] = null;
                    if ((payload = open(group)) == null) {
                        return;
                    }
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
        pending = null;
    }

    /** {@code group}'s open payload, or null (blocked) when the transport has no free buffer now. */
    private MemorySegment open(int group) {
        MemorySegment payload = sender.tryPayload(group);
        if (payload == null) {
            blocked = sender.whenReady();
            return null;
        }
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
        if (finishing) {
            return;
        }
        finishing = true;
        if (pending == null && blocked == NOT_BLOCKED) {
            tryFinish();
        }
    }

    private void tryFinish() {
        try {
            if (sender.tryFinish()) {
                finished = true;
                exchange.addSent(rows, bytes);
            } else {
                blocked = sender.whenReady();
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
    }

    @Override
    public boolean isFinished() {
        return finished;
    }
}
