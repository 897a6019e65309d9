package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StallWatch;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.protocol.CreditDescriptor;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The RECEIVE side of Send/Receive over UD (TODS19 §5.3): ONE UD queue pair receives from every source into a shared
 * pool of {@code buffersPerPeer × nodes} posted receives, each initially credited to one source; a consumed buffer is
 * re-posted and credited to the source that used it (as in the Pythia prototype).
 *
 * <p>Message counting: a source is finished when its END message has arrived and as many DATA messages as it
 * announced, whatever the order; the sum of their {@code mix(id)} must match the announced signature too. More
 * messages than announced, a signature mismatch, or missing messages for {@code datagramTimeout} after the END
 * raise a {@code NETWORK} error: the query restarts. Never a silently wrong result.
 *
 * <p>Thread-safe (SESQ/SR shares it): completions are decoded by one poller at a time, and per-source counters are
 * touched only there; credits are per-source under a lock. Data path allocation-free.
 */
public final class UdTwoSidedReceiveEndpoint implements ReceiveEndpoint {

    private static final long CREDIT_REQUEST_ID = -2;
    private static final int CREDIT_SEND_DEPTH = 64;
    private static final int SIGNAL_EVERY_CREDIT_WRITES = 16;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final CompletionQueue completionQueue;
    private final UdQueuePair queuePair;
    private final RcQueuePair[] creditQueuePairs;
    private final MemoryRegion bufferRegion;
    private final ShuffleBuffer[] buffers;
    private final RemoteKey[] creditKeys;
    private final MemorySegment[] creditScratch;
    private final WorkRequest[] creditRequests;
    private final ReentrantLock[] sourceLocks;
    private final long[] credited;
    private final long[] written;
    private final int[] creditWrites;
    /** 1 once the source's END was taken in: no more credit for it. Written by the poller, read by releasers. */
    private final AtomicIntegerArray ended;
    private final boolean expectsData;

    // Per-source stream state; touched only by the thread holding pollLock.
    private final long[] received;
    private final long[] signatures;
    private final long[] announced;
    private final long[] announcedSignature;
    private final boolean[] finished;
    private int finishedSources;
    private long lastArrivalNs;

    private final ReentrantLock pollLock = new ReentrantLock();
    private final WorkCompletion[] completions = WorkCompletion.array(1);
    private volatile boolean streamEnded;
    private volatile boolean closed;

    public UdTwoSidedReceiveEndpoint(Fabric fabric, int id, int nodes, int self, boolean expectsData,
            EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.expectsData = expectsData;
        this.streamEnded = !expectsData;
        this.failure = new EndpointFailure("receive endpoint " + id + " (" + config.design().paperName() + ")");
        int poolBuffers = config.buffersPerPeer() * nodes;
        this.completionQueue = fabric.createCompletionQueue(1 + poolBuffers + nodes * (CREDIT_SEND_DEPTH + 1));
        this.queuePair = fabric.createUdQueuePair(new QueuePairConfig(completionQueue, completionQueue, 1,
                poolBuffers, 0));
        this.creditQueuePairs = new RcQueuePair[nodes];
        for (int node = 0; node < nodes; node++) {
            creditQueuePairs[node] = fabric.createRcQueuePair(
                    new QueuePairConfig(completionQueue, completionQueue, CREDIT_SEND_DEPTH, 1, 8));
        }
        this.bufferRegion = fabric.register((long) poolBuffers * config.bufferBytes(), EnumSet.of(Access.LOCAL_WRITE));
        this.buffers = new ShuffleBuffer[poolBuffers];
        for (int i = 0; i < poolBuffers; i++) {
            buffers[i] = new ShuffleBuffer(i,
                    bufferRegion.segment().asSlice((long) i * config.bufferBytes(), config.bufferBytes()));
        }
        this.creditKeys = new RemoteKey[nodes];
        MemorySegment scratch = Arena.ofAuto().allocate(8L * nodes, 8);
        this.creditScratch = new MemorySegment[nodes];
        this.creditRequests = new WorkRequest[nodes];
        this.sourceLocks = new ReentrantLock[nodes];
        for (int node = 0; node < nodes; node++) {
            creditScratch[node] = scratch.asSlice(8L * node, 8);
            creditRequests[node] = new WorkRequest();
            sourceLocks[node] = new ReentrantLock();
        }
        this.credited = new long[nodes];
        this.written = new long[nodes];
        this.creditWrites = new int[nodes];
        this.ended = new AtomicIntegerArray(nodes);
        this.received = new long[nodes];
        this.signatures = new long[nodes];
        this.announced = new long[nodes];
        this.announcedSignature = new long[nodes];
        this.finished = new boolean[nodes];
    }

    public QueuePairAddress address() {
        return queuePair.address();
    }

    public QueuePairAddress creditAddress(int node) {
        return creditQueuePairs[node].address();
    }

    /** Wires source {@code node}: its credit queue pair for us and its credit region. */
    public void connect(int node, QueuePairAddress senderCreditQueuePair, RemoteKey creditKey) {
        creditQueuePairs[node].connect(senderCreditQueuePair);
        creditKeys[node] = creditKey;
    }

    /** Posts the pool, credits {@code buffersPerPeer} receives to each source, and writes the first credits. */
    public void start() {
        if (!expectsData) {
            return;
        }
        int depth = config.buffersPerPeer();
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node].lock();
            try {
                for (int i = 0; i < depth; i++) {
                    post(buffers[node * depth + i]);
                    credited[node]++;
                }
                writeCredit(node, false);
            } finally {
                sourceLocks[node].unlock();
            }
        }
        lastArrivalNs = System.nanoTime();
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer getData() {
        StallWatch watch = new StallWatch(config.stallTimeout());
        while (true) {
            failure.check();
            if (streamEnded) {
                return null;
            }
            if (pollLock.tryLock()) {
                try {
                    if (streamEnded) {
                        return null;
                    }
                    if (completionQueue.poll(completions, 1) == 1) {
                        watch.reset();
                        ShuffleBuffer buffer = onCompletion(completions[0]);
                        if (buffer != null) {
                            return buffer;
                        }
                        continue;
                    }
                    checkMissing();
                } finally {
                    pollLock.unlock();
                }
            }
            if (!watch.idle()) {
                throw failure.fail("no data arrived within " + config.stallTimeout() + " (" + finishedSourceCount()
                        + " of " + nodes + " sources finished)");
            }
        }
    }

    private int finishedSourceCount() {
        pollLock.lock();
        try {
            return finishedSources;
        } finally {
            pollLock.unlock();
        }
    }

    /** Caller holds pollLock. Returns the buffer to hand out, or null. */
    private ShuffleBuffer onCompletion(WorkCompletion completion) {
        if (!completion.status().isSuccess()) {
            throw failure.fail("a receive or credit write failed: " + completion.status());
        }
        if (completion.opcode() != Opcode.RECEIVE) {
            return null; // a signaled credit write
        }
        lastArrivalNs = System.nanoTime();
        ShuffleBuffer buffer = buffers[(int) completion.requestId()];
        MemorySegment segment = buffer.segment();
        if (!MessageHeaderDescriptor.isValid(segment, 0)) {
            throw failure.fail("a datagram with a bad header arrived");
        }
        int sourceEndpoint = MessageHeaderDescriptor.source(segment, 0);
        int source = sourceEndpoint >>> 16;
        if (source >= nodes) {
            throw failure.fail("a datagram from unknown endpoint " + sourceEndpoint + " arrived");
        }
        if (MessageHeaderDescriptor.kind(segment, 0) == MessageHeaderDescriptor.KIND_END) {
            announced[source] = MessageHeaderDescriptor.messageCount(segment, 0);
            announcedSignature[source] = MessageHeaderDescriptor.sequence(segment, 0);
            endSource(source);
            repost(buffer, source, false);
            checkFinished(source);
            return null;
        }
        received[source]++;
        signatures[source] += Partitioner.mix(MessageHeaderDescriptor.sequence(segment, 0));
        buffer.received(StreamState.MORE_DATA, sourceEndpoint, source, MessageHeaderDescriptor.payloadLength(segment, 0),
                0);
        checkFinished(source);
        return buffer;
    }

    /** Caller holds pollLock. */
    private void checkFinished(int source) {
        if (ended.get(source) == 0 || finished[source]) {
            if (finished[source]) {
                throw failure.fail("node " + source + " sent more messages than it announced (duplicates)");
            }
            return;
        }
        if (received[source] > announced[source]) {
            throw failure.fail("node " + source + " sent " + announced[source] + " messages but " + received[source]
                    + " arrived (duplicates)");
        }
        if (received[source] == announced[source]) {
            if (signatures[source] != announcedSignature[source]) {
                throw failure.fail("the stream from node " + source
                        + " has the announced message count but not its signature (a loss hidden by a duplicate)");
            }
            finished[source] = true;
            if (++finishedSources == nodes) {
                streamEnded = true;
            }
        }
    }

    /**
     * Caller holds pollLock: fails when an unfinished source's node died (its credit connection broke), or when an
     * announced stream stays incomplete for datagramTimeout.
     */
    private void checkMissing() {
        for (int source = 0; source < nodes; source++) {
            if (!finished[source] && creditQueuePairs[source].state() == dev.faro.fabric.QueuePairState.ERROR) {
                throw failure.fail("node " + source + " failed (its connection broke) before its stream ended");
            }
        }
        if (System.nanoTime() - lastArrivalNs < config.datagramTimeout().toNanos()) {
            return;
        }
        for (int source = 0; source < nodes; source++) {
            if (ended.get(source) == 1 && !finished[source]) {
                throw failure.fail((announced[source] - received[source]) + " of " + announced[source]
                        + " messages from node " + source + " did not arrive within " + config.datagramTimeout()
                        + " after its end of stream (lost)");
            }
        }
    }

    private void endSource(int source) {
        sourceLocks[source].lock();
        try {
            ended.set(source, 1);
            writeCredit(source, true); // FINAL: the sender may close; nothing more is written to it
        } finally {
            sourceLocks[source].unlock();
        }
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        int source = buffer.sourceNode();
        repost(buffer, source, true);
    }

    private void repost(ShuffleBuffer buffer, int source, boolean credit) {
        sourceLocks[source].lock();
        try {
            if (closed) {
                return;
            }
            post(buffer);
            if (credit && ended.get(source) == 0) {
                credited[source]++;
                if (credited[source] - written[source] >= config.creditWriteBackFrequency()) {
                    writeCredit(source, false);
                }
            }
        } finally {
            sourceLocks[source].unlock();
        }
    }

    private void post(ShuffleBuffer buffer) {
        queuePair.postReceive(buffer.index(), bufferRegion, (long) buffer.index() * config.bufferBytes(),
                config.bufferBytes());
    }

    /** Caller holds the source's lock. */
    private void writeCredit(int source, boolean last) {
        long word = credited[source] | (last ? CreditDescriptor.FINAL_FLAG : 0);
        creditScratch[source].set(ValueLayout.JAVA_LONG, 0, word);
        boolean signaled = last || ++creditWrites[source] % SIGNAL_EVERY_CREDIT_WRITES == 0;
        creditQueuePairs[source].postSend(creditRequests[source].clear()
                .requestId(CREDIT_REQUEST_ID)
                .opcode(Opcode.WRITE)
                .inline(creditScratch[source])
                .remote(creditKeys[source], CreditDescriptor.slotOffset(self))
                .signaled(signaled));
        written[source] = credited[source];
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        for (ReentrantLock lock : sourceLocks) {
            lock.lock();
        }
        try {
            closed = true;
        } finally {
            for (ReentrantLock lock : sourceLocks) {
                lock.unlock();
            }
        }
        queuePair.close();
        for (RcQueuePair creditQueuePair : creditQueuePairs) {
            creditQueuePair.close();
        }
        completionQueue.close();
        bufferRegion.close();
    }

    @Override
    public String toString() {
        return "UdTwoSidedReceiveEndpoint[id=" + id + ", nodes=" + nodes + ", self=" + self + "]";
    }
}
