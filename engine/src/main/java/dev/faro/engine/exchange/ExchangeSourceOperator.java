package dev.faro.engine.exchange;

import dev.faro.engine.operator.Operator;
import dev.faro.engine.vector.Batch;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.transport.ExchangeReceiver;

/**
 * One consuming thread's exchange source: takes received buffers as they arrive, decodes their rows straight from
 * the transport's buffer, releases it at once, and returns a batch once it holds {@link #BATCH_ROWS} rows (or the
 * stream ended). There is no receiver thread: the consuming pipeline's drivers are the receivers, and a driver
 * waiting for data waits inside the transport ({@link ExchangeReceiver#take}, spin then park, stall-checked). If a
 * downstream operator finishes early (a limit), {@link #finish} drains and releases the rest, so that the senders
 * can end their streams.
 *
 * <p>Thread-confined. Data path: allocates the decoded batches only (and, in them, one String per VARCHAR value).
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
    private boolean finished;

    ExchangeSourceOperator(ExchangeReceiver receiver, RowCodec codec, ShuffleExchange exchange) {
        this.receiver = receiver;
        this.codec = codec;
        this.exchange = exchange;
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
        if (finished) {
            return null;
        }
        try {
            while (!ended && codec.decodedRows() < BATCH_ROWS) {
                ShuffleBuffer buffer = receiver.take();
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
        if (finished) {
            return;
        }
        try {
            ShuffleBuffer buffer;
            while (!ended && (buffer = receiver.take()) != null) {
                bytes += buffer.payloadLength();
                receiver.release(buffer);
            }
        } catch (FaroException e) {
            throw (FaroException) exchange.named(e);
        }
        ended = true;
        end();
    }

    @Override
    public boolean isFinished() {
        return finished;
    }
}
