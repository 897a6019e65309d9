package dev.faro.engine.exchange;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.transport.ExchangeReceiver;
import java.util.concurrent.CompletionStage;

/**
 * One consuming thread's exchange source: takes received buffers as they arrive, decodes their rows straight from
 * the transport's buffer, releases it at once, and returns a batch once it holds {@link #BATCH_ROWS} rows, or as soon
 * as nothing more has arrived (or the stream ended). There is no receiver thread: the consuming pipeline's drivers
 * are the receivers, and they never wait inside the transport: when nothing has arrived ({@link
 * ExchangeReceiver#poll}), {@link #isBlocked} returns the receiver's readiness stage and the driver yields its
 * thread. If a downstream operator finishes early (a limit), {@link #finish} drains and releases the rest the same
 * way, so that the senders can end their streams.
 *
 * <p>Thread-confined. Data path: allocates the decoded batches only (and, in them, one String per VARCHAR value; a
 * wait allocates its stage).
 */
final class ExchangeSourceOperator implements Operator {

    /** Rows a batch gathers before it is returned (a buffer is decoded whole, so a batch may hold more). */
    static final int BATCH_ROWS = 1024;

    private final ExchangeReceiver receiver;
    private final RowCodec codec;
    private final ShuffleExchange exchange;
    private long rows;
    private long bytes;
    private boolean ended;
    private boolean draining;
    private boolean finished;
    private CompletionStage<Void> blocked = NOT_BLOCKED;

    ExchangeSourceOperator(ExchangeReceiver receiver, RowCodec codec, ShuffleExchange exchange) {
        this.receiver = receiver;
        this.codec = codec;
        this.exchange = exchange;
    }

    @Override
    public CompletionStage<Void> isBlocked() {
        if (blocked != NOT_BLOCKED) {
            if (!blocked.toCompletableFuture().isDone()) {
                return blocked;
            }
            blocked = NOT_BLOCKED;
        }
        if (draining && !finished) {
            drain();
        }
        return blocked;
    }

    @Override
    public boolean needsInput() {
        return false;
    }

    @Override
    public void addInput(Batch batch) {
        throw new IllegalStateException("an exchange source takes no input");
    }

    @Override
    public Batch getOutput() {
        if (finished || blocked != NOT_BLOCKED) {
            return null;
        }
        try {
            while (!ended && codec.decodedRows() < BATCH_ROWS) {
                ShuffleBuffer buffer = receiver.poll();
                if (buffer == ExchangeReceiver.NOT_YET) {
                    if (codec.decodedRows() > 0) {
                        break;
                    }
                    blocked = receiver.whenReady();
                    return null;
                }
                if (buffer == null) {
                    ended = true;
                    break;
                }
                try {
                    rows += codec.decode(buffer.payload(), buffer.payloadLength());
                    bytes += buffer.payloadLength();
                } finally {
                    receiver.release(buffer);
                }
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
        if (codec.decodedRows() > 0) {
            return codec.takeBatch();
        }
        end();
        return null;
    }

    private void end() {
        if (!finished) {
            finished = true;
            exchange.addReceived(rows, bytes);
        }
    }

    @Override
    public void finish() {
        if (finished || draining) {
            return;
        }
        draining = true;
        if (blocked == NOT_BLOCKED) {
            drain();
        }
    }

    /** Releases what arrives until the stream ends; blocked when nothing has arrived yet. */
    private void drain() {
        try {
            while (!ended) {
                ShuffleBuffer buffer = receiver.poll();
                if (buffer == ExchangeReceiver.NOT_YET) {
                    blocked = receiver.whenReady();
                    return;
                }
                if (buffer == null) {
                    ended = true;
                    break;
                }
                bytes += buffer.payloadLength();
                receiver.release(buffer);
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
        end();
    }

    @Override
    public boolean isFinished() {
        return finished;
    }
}
