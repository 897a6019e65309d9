package dev.faro.engine.exchange;

import dev.faro.engine.exec.ExchangeStatistics;
import dev.faro.engine.exec.ExecutionContext;
import dev.faro.engine.exec.QueryFailure;
import dev.faro.engine.operator.Operator;
import dev.faro.engine.operator.SinkFactory;
import dev.faro.engine.plan.ExchangeKind;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Schema;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.baseline.TcpShuffleConfig;
import dev.faro.shuffle.baseline.TcpShuffleOpener;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One exchange of one query at one node, over the shuffle layer: the endpoints (opened collectively by every node at
 * query start, in plan order), the SHUFFLE side as a {@link SinkFactory} for the pipeline producing the rows
 * ({@link ShuffleSink}, TODS19 Algorithm 1, fixed-width rows of a {@link RowCodec}), and the RECEIVE side as
 * {@code threads} receiver threads ({@link ReceiveSource}, Algorithm 2) that decode rows into batches for the
 * consuming pipeline. Coordination code; the per-row encode/partition/decode paths allocate nothing but the decoded
 * batches.
 *
 * <p>Threads: {@link #open}, {@link #startReceiving}, {@link #awaitReceived} and {@link #close} are called by the
 * query's conductor; the sink's operators by the sending pipeline's drivers; receiver threads are this class's own.
 */
public final class ShuffleExchange implements AutoCloseable {

    private static final int MAX_VECTOR_BYTES = 1 << 20;

    private final int id;
    private final ExchangeKind kind;
    private final List<String> keys;
    private final ExecutionContext context;
    private final QueryFailure failure;
    private final RowCodec codec;
    private final TransmissionGroups groups;
    private final EndpointConfig config;
    private final AtomicLong rowsSent = new AtomicLong();
    private final AtomicLong rowsReceived = new AtomicLong();
    private final List<Thread> receivers = new ArrayList<>();
    private final List<List<Batch>> received = new ArrayList<>();
    private volatile long sendNanos;
    private NodeEndpoints endpoints;
    private ShuffleSink sink;

    public ShuffleExchange(
            int id,
            ExchangeKind kind,
            Schema schema,
            List<String> keys,
            ExecutionContext context,
            QueryFailure failure) {
        this.id = id;
        this.kind = kind;
        this.keys = List.copyOf(keys);
        this.context = context;
        this.failure = failure;
        this.codec = new RowCodec(schema);
        int nodes = context.nodeCount();
        this.groups = switch (kind) {
            case REPARTITION -> TransmissionGroups.repartition(nodes);
            case BROADCAST -> TransmissionGroups.broadcast(nodes);
            case GATHER -> TransmissionGroups.of(nodes, List.of(new int[] {0}));
        };
        this.config = context.endpointConfig();
        if (codec.rowBytes() > config.bufferBytes() / 2) {
            throw new IllegalArgumentException("a row of exchange " + id + " takes " + codec.rowBytes()
                    + " bytes, more than half a shuffle buffer (" + config.bufferBytes() + " bytes of "
                    + config.design().paperName() + "): project fewer or narrower columns, or raise bufferBytes");
        }
    }

    public int id() {
        return id;
    }

    /** The shuffle's name, unique per query and exchange: {@code <queryId>-x<id>}. */
    public String shuffleName() {
        return context.queryId() + "-x" + id;
    }

    /** Opens this node's endpoints; collective: every node opens the query's exchanges in the same order. */
    public void open() {
        endpoints = switch (context.transport()) {
            case FABRIC ->
                EndpointFactory.open(context.fabric(), context.peerExchange(), shuffleName(), config, groups);
            case TCP_SOCKETS ->
                TcpShuffleOpener.open(
                        context.peerExchange(),
                        shuffleName(),
                        TcpShuffleConfig.perThread(context.threads())
                                .withStallTimeout(config.stallTimeout())
                                .withProgress(config.progress()),
                        groups,
                        context.secret());
        };
        Partitioner partitioner = kind == ExchangeKind.REPARTITION
                ? new KeyPartitioner(codec, keys, groups.groupCount())
                : (tuples, offset) -> 0;
        sink = new ShuffleSink(endpoints, groups, partitioner, codec.rowBytes(), context.threads());
    }

    /** The sending side, for the pipeline that produces this exchange's rows. */
    public SinkFactory sinkFactory() {
        return new SendFactory();
    }

    /** Starts the receiver threads (none at a node that receives nothing, e.g. a GATHER's other nodes). */
    public void startReceiving() {
        if (!groups.receives(context.nodeIndex())) {
            return;
        }
        for (int t = 0; t < context.threads(); t++) {
            List<Batch> batches = new ArrayList<>();
            received.add(batches);
            int thread = t;
            receivers.add(Thread.ofPlatform()
                    .daemon()
                    .name(shuffleName() + "-receive-" + t)
                    .start(() -> receive(thread, batches)));
        }
    }

    private void receive(int thread, List<Batch> batches) {
        try (Arena arena = Arena.ofConfined()) {
            ReceiveSource source = new ReceiveSource(endpoints.receiver(thread), codec.rowBytes());
            RowCodec decoder = new RowCodec(codec.schema());
            int rows = Math.max(1, Math.min(4096, MAX_VECTOR_BYTES / codec.rowBytes()));
            MemorySegment vector = arena.allocate((long) rows * codec.rowBytes(), 8);
            int count;
            while ((count = source.next(vector)) > 0) {
                batches.add(decoder.decode(vector, count));
                rowsReceived.addAndGet(count);
                config.progress().advance();
                failure.check();
            }
        } catch (Throwable e) {
            failure.fail(named(e));
        }
    }

    /**
     * A shuffle failure with this exchange's name in front: "exchange 2 (REPARTITION, shuffle q3-x2) at node 1:
     * receive endpoint 0 (MESQ/SR): no data arrived for 10 s ... waiting for node 0)"; other throwables as they are.
     */
    Throwable named(Throwable failure) {
        if (failure instanceof FaroException faro
                && !String.valueOf(faro.getMessage()).startsWith("exchange ")) {
            return new FaroException(
                    faro.category(),
                    "exchange " + id + " (" + kind + ", shuffle " + shuffleName() + ") at node " + context.nodeIndex()
                            + ": " + faro.getMessage(),
                    faro);
        }
        return failure;
    }

    /**
     * Waits until every sender's stream has ended at this node and returns the received batches; throws
     * {@link QueryFailure.QueryAbortedException} when the query fails meanwhile.
     */
    public List<Batch> awaitReceived() {
        for (Thread receiver : receivers) {
            try {
                while (!receiver.join(Duration.ofMillis(20))) {
                    failure.check();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while receiving exchange " + id, e);
            }
        }
        failure.check();
        List<Batch> all = new ArrayList<>();
        for (List<Batch> batches : received) {
            all.addAll(batches);
        }
        return all;
    }

    /** Waits up to {@code bound} for the receiver threads to end; returns whether they all have. */
    public boolean awaitReceivers(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        for (Thread receiver : receivers) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !receiver.join(Duration.ofNanos(left))) {
                return false;
            }
        }
        return true;
    }

    /** How long a blocked shuffle call may wait before failing: the endpoints' stall timeout. */
    public Duration stallTimeout() {
        return config.stallTimeout();
    }

    public ExchangeStatistics statistics() {
        long sent = rowsSent.get();
        long got = rowsReceived.get();
        return new ExchangeStatistics(
                id, kind, codec.rowBytes(), sent, sent * codec.rowBytes(), got, got * codec.rowBytes(), sendNanos);
    }

    /** Records the wall time of the pipeline that sent this exchange's rows from this node. */
    public void recordSendNanos(long nanos) {
        sendNanos = nanos;
    }

    /** Closes the endpoints (call after the receiver threads ended); idempotent. */
    @Override
    public void close() {
        NodeEndpoints opened = endpoints;
        endpoints = null;
        if (opened != null) {
            opened.close();
        }
    }

    /** The SHUFFLE side: one writer per driver thread; {@link #complete} ends the streams of unused threads. */
    private final class SendFactory implements SinkFactory {
        private final boolean[] created = new boolean[context.threads()];

        @Override
        public synchronized Operator create(int thread) {
            created[thread] = true;
            return new ExchangeSinkOperator(
                    sink.writer(thread), new RowCodec(codec.schema()), rowsSent, ShuffleExchange.this);
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
                        sink.writer(t).finish();
                    } catch (FaroException e) {
                        throw (FaroException) named(e);
                    }
                }
            }
        }
    }
}
