package dev.faro.engine.exchange;

import dev.faro.engine.exec.ExchangeStatistics;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.operator.OperatorFactory;
import dev.faro.engine.operator.SinkFactory;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.vector.Schema;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One exchange of one query at one node, over the context's {@link dev.faro.shuffle.transport.ExchangeTransport}: the
 * channel (opened collectively by every node in plan order, while the query's first pipelines run), the sending side
 * as a {@link SinkFactory} for the producing pipeline ({@link ExchangeSinkOperator}: partition on columns, encode each row
 * once into its group's transport buffer) and the receiving side as the source of the consuming pipeline
 * ({@link ExchangeSourceOperator}: decode straight from received buffers). Both pipelines run at the same time, so a
 * node's memory for the exchange is the transport's buffers, not the relation. Rows are in the {@link RowCodec}
 * format. Coordination code; the operators are the data path.
 *
 * <p>Threads: {@link #open} is called by the query's opener thread, {@link #close} by the conductor; the operators by
 * the drivers; the counters are atomics.
 */
public final class ShuffleExchange implements AutoCloseable {

    private final int id;
    private final ExchangeKind kind;
    private final Schema schema;
    private final List<String> keys;
    private final ExecutionContext context;
    private final RowCodec codec;
    private final TransmissionGroups groups;
    private final AtomicLong rowsSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong rowsReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private volatile long sendNanos;
    /** The channel's high-water mark when it was closed. */
    private volatile int closedHighWater;

    private volatile ExchangeChannel channel;
    /** Whether {@link #open} succeeded (stays true after {@link #close}). */
    private volatile boolean opened;

    /** An exchange that sends every column. */
    public ShuffleExchange(
            int id, ExchangeKind kind, Schema schema, boolean[] nullable, List<String> keys, ExecutionContext context) {
        this(id, kind, schema, nullable, new boolean[schema.size()], keys, context);
    }

    /**
     * @param nullable per column of {@code schema}: whether it may be NULL (see {@link Nullability})
     * @param pruned per column: whether it stays behind, read by nothing after the exchange (see
     *     {@link RequiredColumns}); never a key
     * @param keys the hash columns of a REPARTITION, empty otherwise
     */
    public ShuffleExchange(
            int id,
            ExchangeKind kind,
            Schema schema,
            boolean[] nullable,
            boolean[] pruned,
            List<String> keys,
            ExecutionContext context) {
        this.id = id;
        this.kind = kind;
        this.schema = schema;
        this.keys = List.copyOf(keys);
        this.context = context;
        this.codec = new RowCodec(schema, nullable, pruned);
        int nodes = context.nodeCount();
        this.groups = switch (kind) {
            case REPARTITION ->
                repartition(
                        nodes,
                        context.transport() == null ? 1 : context.transport().unitsPerNode(context.threads()));
            case BROADCAST -> TransmissionGroups.broadcast(nodes);
            case GATHER -> TransmissionGroups.of(nodes, List.of(new int[] {0}));
        };
    }

    /**
     * A repartition over {@code units} parallel units per node (see
     * {@link dev.faro.shuffle.transport.ExchangeTransport#unitsPerNode}): group g goes to node g / units.
     */
    static TransmissionGroups repartition(int nodes, int units) {
        if (units == 1) {
            return TransmissionGroups.repartition(nodes);
        }
        List<int[]> groups = new java.util.ArrayList<>(nodes * units);
        for (int group = 0; group < nodes * units; group++) {
            groups.add(new int[] {group / units});
        }
        return TransmissionGroups.of(nodes, groups);
    }

    public int id() {
        return id;
    }

    /** The exchange's name, unique per query and exchange: {@code <queryId>-x<id>}. */
    public String shuffleName() {
        return context.queryId() + "-x" + id;
    }

    /** Opens this node's side of the exchange; collective: every node opens the query's exchanges in the same order. */
    public void open() {
        try {
            channel = context.transport().open(shuffleName(), groups, context.threads());
            opened = true;
        } catch (FaroException e) {
            throw (FaroException) named(e);
        }
    }

    /** Whether this node's side has been opened: its pipelines may start. */
    public boolean isOpened() {
        return opened;
    }

    /** The sending side, for the pipeline that produces this exchange's rows. */
    public SinkFactory sinkFactory() {
        return new SendFactory();
    }

    /** The receiving side, the source of the pipeline that consumes this exchange's rows. */
    public OperatorFactory sourceFactory() {
        return new ReceiveFactory();
    }

    /** The receiving side's factory: one source per driver thread. */
    public final class ReceiveFactory implements OperatorFactory {
        private ReceiveFactory() {}

        @Override
        public Operator create(int thread) {
            return new ExchangeSourceOperator(channel().receiver(thread), codec.copy(), ShuffleExchange.this);
        }

        /** The exchange this source receives from. */
        public ShuffleExchange exchange() {
            return ShuffleExchange.this;
        }
    }

    private ExchangeChannel channel() {
        ExchangeChannel opened = channel;
        if (opened == null) {
            throw new IllegalStateException("exchange " + id + " is not open");
        }
        return opened;
    }

    /**
     * A transport failure with this exchange's name in front: "exchange 2 (REPARTITION, shuffle q3-x2, MESQ/SR) at
     * node 1: receive endpoint 0 (MESQ/SR): no data arrived for 10 s ..."; other throwables as they are.
     */
    Throwable named(Throwable failure) {
        if (failure instanceof FaroException faro
                && !String.valueOf(faro.getMessage()).startsWith("exchange ")) {
            return new FaroException(faro.category(), describe() + ": " + faro.getMessage(), faro);
        }
        return failure;
    }

    /** The one-line error of a row that does not fit an empty buffer. */
    IllegalArgumentException rowTooLarge(int rowBytes, long bufferBytes) {
        return new IllegalArgumentException(describe() + ": a row takes " + rowBytes + " bytes, more than one "
                + context.transport().name() + " buffer holds (" + bufferBytes
                + " bytes): project fewer or shorter columns before the exchange, or use a transport with larger"
                + " buffers");
    }

    private String describe() {
        return "exchange " + id + " (" + kind + ", shuffle " + shuffleName() + ", "
                + context.transport().name() + ") at node " + context.nodeIndex();
    }

    void addSent(long rows, long bytes) {
        rowsSent.addAndGet(rows);
        bytesSent.addAndGet(bytes);
    }

    void addReceived(long rows, long bytes) {
        rowsReceived.addAndGet(rows);
        bytesReceived.addAndGet(bytes);
    }

    /** The most transport buffers this node's threads held at once (0 before {@link #open}). */
    public int buffersHeldHighWater() {
        ExchangeChannel opened = channel;
        return opened == null ? closedHighWater : opened.buffersHeldHighWater();
    }

    public ExchangeStatistics statistics() {
        long sent = rowsSent.get();
        long bytes = bytesSent.get();
        return new ExchangeStatistics(
                id,
                kind,
                sent == 0 ? 0 : (int) (bytes / sent),
                sent,
                bytes,
                rowsReceived.get(),
                bytesReceived.get(),
                sendNanos,
                buffersHeldHighWater());
    }

    /** Records the wall time of the pipeline that sent this exchange's rows from this node. */
    public void recordSendNanos(long nanos) {
        sendNanos = nanos;
    }

    /** Closes the channel (call once no thread uses it); idempotent. */
    @Override
    public void close() {
        end(false);
    }

    /** Closes the channel after the query failed ({@link ExchangeChannel#abandon}); idempotent. */
    public void abandon() {
        end(true);
    }

    private void end(boolean abandon) {
        ExchangeChannel opened = channel;
        if (opened != null) {
            closedHighWater = opened.buffersHeldHighWater();
            channel = null;
            if (abandon) {
                opened.abandon();
            } else {
                opened.close();
            }
        }
    }

    /** The sending side: one sink per driver thread; {@link #complete} ends the streams of unused threads. */
    private final class SendFactory implements SinkFactory {
        private final boolean[] created = new boolean[context.threads()];

        @Override
        public synchronized Operator create(int thread) {
            created[thread] = true;
            return new ExchangeSinkOperator(
                    channel().sender(thread),
                    codec.copy(),
                    new RowPartitioner(schema, keys, groups.groupCount()),
                    groups.groupCount(),
                    ShuffleExchange.this);
        }

        @Override
        public void complete(int threads) {
            for (int t = 0; t < created.length; t++) {
                boolean used;
                synchronized (this) {
                    used = created[t];
                }
                if (!used) {
                    try {
                        channel().sender(t).finish();
                    } catch (FaroException e) {
                        throw (FaroException) named(e);
                    }
                }
            }
        }
    }
}
