package dev.faro.shuffle.endpoint.twosided;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.shuffle.buffer.BufferCounters;
import dev.faro.shuffle.buffer.BufferPolicy;
import dev.faro.shuffle.buffer.BufferPool;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.protocol.CreditWriter;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
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

    /** Blocked time counted by this endpoint's waits (see {@link WaitLoop}). */
    private final AtomicLong dataWaitNanos = new AtomicLong();

    /** While GETDATA stays starved, one more receive buffer per this interval (the first one at once). */
    private static final long STARVED_ADD_INTERVAL_NS = 200_000;
    /** A GETDATA call that leaves at least this many buffers ready besides the one it returns sees a surplus. */
    private static final int SURPLUS_READY = 2;
    /** After this many consecutive calls with a surplus, one buffer is retired (hysteresis; see getData). */
    private static final int SURPLUS_CALLS = 32;

    private final int id;
    private final int nodes;
    private final int self;
    private final EndpointConfig config;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step receiveStep = this::tryReceive;
    private final CompletionQueue completionQueue;
    private final UdQueuePair queuePair;
    private final RcQueuePair[] creditQueuePairs;
    private final BufferPool pool;
    private final BufferPolicy policy;
    private final int maximumBuffers;
    private final BufferCounters counters = new BufferCounters();
    /** Buffers this endpoint borrowed and holds (posted, ready or consumed), by slot; guarded by poolLock. */
    private final ShuffleBuffer[] owned;

    private int ownedCount;
    private final ReentrantLock poolLock = new ReentrantLock();
    /** Pool index → 1 when the adaptive policy retires the buffer on release instead of re-posting it. */
    private final AtomicIntegerArray retireOnRelease;

    private final CreditWriter credits;
    private final ReentrantLock[] sourceLocks;
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
    private final WorkCompletion[] completions = WorkCompletion.array(16);
    /** Arrived data buffers not yet handed out (pool indexes), FIFO; guarded by pollLock. */
    private final int[] ready;

    private int readyHead;
    private int readyCount;
    /** Consecutive GETDATA calls that left a surplus of ready buffers; guarded by pollLock. */
    private int surplusStreak;
    /** The next source a borrowed buffer is credited to (round-robin); guarded by pollLock. */
    private int nextCreditedSource;
    /** Adaptive: when starvation adds the next receive buffer; 0 until GETDATA starves; guarded by pollLock. */
    private long nextAddNs;

    private volatile boolean streamEnded;
    private volatile boolean closed;

    public UdTwoSidedReceiveEndpoint(
            Fabric fabric, BufferPool pool, int id, int nodes, int self, boolean expectsData, EndpointConfig config) {
        this.id = id;
        this.nodes = nodes;
        this.self = self;
        this.config = config;
        this.expectsData = expectsData;
        this.streamEnded = !expectsData;
        this.failure = new EndpointFailure(
                "receive endpoint " + id + " (" + config.design().paperName() + ")");
        this.waits = new WaitLoop(failure, config);
        this.pool = pool;
        this.policy = config.bufferPolicy();
        this.maximumBuffers = policy.maximumPerPeer() * nodes;
        this.completionQueue = fabric.createCompletionQueue(1 + maximumBuffers + nodes);
        this.queuePair =
                fabric.createUdQueuePair(new QueuePairConfig(completionQueue, completionQueue, 1, maximumBuffers, 0));
        this.credits = new CreditWriter(fabric, nodes, self);
        this.creditQueuePairs = new RcQueuePair[nodes];
        for (int node = 0; node < nodes; node++) {
            // credit writes complete on the writer's own queue, which it polls itself (never QUEUE_FULL)
            creditQueuePairs[node] = fabric.createRcQueuePair(
                    new QueuePairConfig(credits.completionQueue(), completionQueue, CreditWriter.SEND_DEPTH, 1, 8));
        }
        this.owned = new ShuffleBuffer[maximumBuffers];
        this.retireOnRelease = new AtomicIntegerArray(pool.maximumBuffers());
        this.ready = new int[maximumBuffers];
        this.sourceLocks = new ReentrantLock[nodes];
        for (int node = 0; node < nodes; node++) {
            sourceLocks[node] = new ReentrantLock();
        }
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
        credits.connect(node, creditKey);
    }

    /**
     * Posts the pool, credits {@code buffersPerPeer} receives to each source, and writes the first credits. A recycled
     * endpoint's receives are still posted: they are credited first (spread over the sources), and only the missing
     * ones borrowed.
     */
    public void start() {
        if (!expectsData) {
            return;
        }
        int depth = policy.initialPerPeer();
        int posted = (int) counters.count(BufferCounters.State.TRANSMIT);
        int total = Math.max(posted, depth * nodes);
        for (int node = 0; node < nodes; node++) {
            int share = total / nodes + (node < total % nodes ? 1 : 0);
            sourceLocks[node].lock();
            try {
                for (int i = 0; i < share; i++) {
                    if (posted > 0) {
                        posted--;
                    } else {
                        ShuffleBuffer buffer = borrow();
                        if (buffer == null) {
                            throw new IllegalStateException("the buffer pool cannot lend " + depth * nodes
                                    + " receive buffers: pool maximum=" + pool.maximumBuffers());
                        }
                        counters.move(BufferCounters.State.WAIT, BufferCounters.State.TRANSMIT);
                        post(buffer);
                    }
                    credits.credit(node);
                }
                writeCredit(node, false);
            } finally {
                sourceLocks[node].unlock();
            }
        }
        lastArrivalNs = System.nanoTime();
    }

    /**
     * After a complete stream whose every buffer was released: the FINAL credit writes as in {@link #close}, then
     * every source unfinished and uncredited, the receives still posted: {@link #restart} credits them again.
     */
    @Override
    public boolean recycle() {
        if (closed
                || failure.failed()
                || !streamEnded
                || readyCount != 0
                || counters.count(BufferCounters.State.CONSUME) != 0
                || counters.count(BufferCounters.State.READY) != 0) {
            return false;
        }
        awaitFinalCreditWrites();
        credits.resetCredits();
        for (int source = 0; source < nodes; source++) {
            ended.set(source, 0);
            received[source] = 0;
            signatures[source] = 0;
            announced[source] = 0;
            announcedSignature[source] = 0;
            finished[source] = false;
        }
        finishedSources = 0;
        surplusStreak = 0;
        nextCreditedSource = 0;
        nextAddNs = 0;
        streamEnded = !expectsData;
        return true;
    }

    @Override
    public void restart() {
        start();
    }

    @Override
    public int id() {
        return id;
    }

    /**
     * GETDATA. With the adaptive policy this is ADAPTIVEGETDATA (TODS19 §6.2): a call that finds nothing ready
     * borrows one more receive buffer from the pool at once (posted and credited to the next unfinished source,
     * round-robin), and one more per further {@value #STARVED_ADD_INTERVAL_NS} ns the endpoint stays starved (the
     * interval is the endpoint's, shared by its threads, and restarts when a buffer is handed out), up to the policy's
     * maximum (otherwise the one credit could go to a source that is itself blocked, and every node wait for
     * another). Surplus is retired slowly: after {@value #SURPLUS_CALLS} calls in a row that each left at least
     * {@value #SURPLUS_READY} buffers ready besides the one returned, one ready buffer is marked and goes back to the
     * pool when released, after its data has been consumed. (Retiring every surplus buffer at once, as first written,
     * collapsed the circulation to one or two buffers per peer whenever a sender's burst arrived: E8 measured it at
     * 0.36 of the best fixed depth.)
     */
    @Override
    public ShuffleBuffer getData() {
        int index = waits.awaitData(receiveStep, dataWaitNanos, finished);
        return index == WaitLoop.END_OF_STREAM ? null : pool.buffer(index);
    }

    @Override
    public ShuffleBuffer poll() {
        int index = waits.attempt(receiveStep, 0);
        if (index == WaitLoop.IDLE) {
            return NOT_YET;
        }
        return index == WaitLoop.END_OF_STREAM ? null : pool.buffer(index);
    }

    /** One try of GETDATA: the index of a buffer to hand out, {@link WaitLoop#END_OF_STREAM}, or a step code. */
    private int tryReceive(int unused) {
        if (streamEnded) {
            return WaitLoop.END_OF_STREAM;
        }
        if (!pollLock.tryLock()) {
            return WaitLoop.IDLE;
        }
        try {
            int polled = readyCount == 0 ? pollBatch() : 0;
            if (readyCount > 0) {
                ShuffleBuffer buffer = takeReady();
                if (policy.isAdaptive()) {
                    retireSurplus();
                    nextAddNs = 0;
                }
                return buffer.index();
            }
            if (finishedSources == nodes) {
                streamEnded = true;
                return WaitLoop.END_OF_STREAM;
            }
            if (policy.isAdaptive()) {
                // starved: nothing ready, so one more buffer into circulation now, and another for every further
                // STARVED_ADD_INTERVAL_NS of starvation (the credit may have gone to a source that is blocked)
                long now = System.nanoTime();
                if (nextAddNs == 0 || now - nextAddNs >= 0) {
                    addReceiveBuffer();
                    nextAddNs = now + STARVED_ADD_INTERVAL_NS;
                }
            }
            checkMissing();
            return polled > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
        } finally {
            pollLock.unlock();
        }
    }

    /** Caller holds pollLock: polls a batch of completions; data buffers join the ready FIFO. */
    private int pollBatch() {
        int count = completionQueue.poll(completions);
        for (int i = 0; i < count; i++) {
            ShuffleBuffer buffer = onCompletion(completions[i]);
            if (buffer != null) {
                ready[(readyHead + readyCount++) % ready.length] = buffer.index();
            }
        }
        return count;
    }

    private ShuffleBuffer takeReady() {
        ShuffleBuffer buffer = pool.buffer(ready[readyHead]);
        readyHead = (readyHead + 1) % ready.length;
        readyCount--;
        counters.move(BufferCounters.State.READY, BufferCounters.State.CONSUME);
        return buffer;
    }

    /** Caller holds pollLock: after a sustained surplus of ready buffers, marks one to go back to the pool. */
    private void retireSurplus() {
        if (readyCount < SURPLUS_READY) {
            surplusStreak = 0;
            return;
        }
        if (++surplusStreak < SURPLUS_CALLS) {
            return;
        }
        surplusStreak = 0;
        for (int i = readyCount - 1; i >= 0; i--) { // the newest ready buffer not yet marked
            int index = ready[(readyHead + i) % ready.length];
            if (retireOnRelease.compareAndSet(index, 0, 1)) {
                return;
            }
        }
    }

    /** Borrows, posts and credits one more receive buffer, if the policy and the pool allow. Caller holds pollLock. */
    private void addReceiveBuffer() {
        int source = nextUnfinishedSource();
        if (source < 0) {
            return;
        }
        ShuffleBuffer buffer = borrow();
        if (buffer == null) {
            return;
        }
        sourceLocks[source].lock();
        try {
            counters.move(BufferCounters.State.WAIT, BufferCounters.State.TRANSMIT);
            post(buffer);
            credits.credit(source);
            writeCredit(source, false);
        } finally {
            sourceLocks[source].unlock();
        }
    }

    /** Grants one already posted receive to the next unfinished source. Caller holds pollLock. */
    private void creditAnotherSource() {
        int source = nextUnfinishedSource();
        if (source < 0) {
            return;
        }
        sourceLocks[source].lock();
        try {
            if (ended.get(source) == 0) {
                credits.credit(source);
                writeCredit(source, false);
            }
        } finally {
            sourceLocks[source].unlock();
        }
    }

    /** Round-robin over the sources whose END has not arrived; -1 when all have. Caller holds pollLock. */
    private int nextUnfinishedSource() {
        for (int tries = 0; tries < nodes; tries++) {
            int source = nextCreditedSource;
            nextCreditedSource = (nextCreditedSource + 1) % nodes;
            if (ended.get(source) == 0) {
                return source;
            }
        }
        return -1;
    }

    /** Borrows a buffer into this endpoint's circulation, or null at the policy's maximum or the pool's. */
    private ShuffleBuffer borrow() {
        poolLock.lock();
        try {
            if (ownedCount >= maximumBuffers) {
                return null;
            }
            ShuffleBuffer buffer = pool.borrow();
            if (buffer != null) {
                owned[ownedCount++] = buffer;
                counters.borrowed(BufferCounters.State.WAIT);
            }
            return buffer;
        } finally {
            poolLock.unlock();
        }
    }

    private void giveBack(ShuffleBuffer buffer) {
        poolLock.lock();
        try {
            for (int i = 0; i < ownedCount; i++) {
                if (owned[i] == buffer) {
                    owned[i] = owned[--ownedCount];
                    owned[ownedCount] = null;
                    retireOnRelease.set(buffer.index(), 0);
                    counters.retired(BufferCounters.State.CONSUME);
                    pool.giveBack(buffer);
                    return;
                }
            }
        } finally {
            poolLock.unlock();
        }
    }

    /** The states of this endpoint's buffers, and how often the adaptive policy borrowed and retired. */
    public BufferCounters bufferCounters() {
        return counters;
    }

    /** Caller holds pollLock. Returns the buffer to hand out, or null. */
    private ShuffleBuffer onCompletion(WorkCompletion completion) {
        if (!completion.status().isSuccess()) {
            throw failure.fail("a receive failed: " + completion.status());
        }
        if (completion.opcode() != Opcode.RECEIVE) {
            return null; // not expected: credit writes complete on the credit writer's queue
        }
        lastArrivalNs = System.nanoTime();
        ShuffleBuffer buffer = pool.buffer((int) completion.requestId());
        MemorySegment segment = buffer.segment();
        int payloadLength = MessageHeaderDescriptor.checkedPayloadLength(segment, 0, completion.byteLength());
        if (payloadLength < 0 || MessageHeaderDescriptor.LENGTH + payloadLength != completion.byteLength()) {
            throw failure.fail("a datagram with a bad header arrived (" + completion.byteLength() + " bytes)");
        }
        int sourceEndpoint = MessageHeaderDescriptor.source(segment, 0);
        int source = sourceEndpoint >>> 16;
        if (source >= nodes) {
            throw failure.fail("a datagram from unknown endpoint " + sourceEndpoint + " arrived");
        }
        if (MessageHeaderDescriptor.kind(segment, 0) == MessageHeaderDescriptor.KIND_END) {
            announced[source] = MessageHeaderDescriptor.messageCount(segment, 0);
            announcedSignature[source] = MessageHeaderDescriptor.sequence(segment, 0);
            int unused = endSource(source);
            counters.move(BufferCounters.State.TRANSMIT, BufferCounters.State.CONSUME);
            repost(buffer, source, false);
            if (policy.isAdaptive()) {
                for (int i = 0; i < unused; i++) {
                    creditAnotherSource(); // posted receives the finished source never used: to the others
                }
            }
            checkFinished(source);
            return null;
        }
        counters.move(BufferCounters.State.TRANSMIT, BufferCounters.State.READY);
        received[source]++;
        signatures[source] += Partitioner.mix(MessageHeaderDescriptor.sequence(segment, 0));
        buffer.received(StreamState.MORE_DATA, sourceEndpoint, source, payloadLength, 0);
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
            finishedSources++; // the stream ends once the ready buffers are handed out too
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

    /** Marks the source ended and writes its FINAL credit; returns the credits it was granted and did not use. */
    private int endSource(int source) {
        sourceLocks[source].lock();
        try {
            ended.set(source, 1);
            writeCredit(source, true); // FINAL: the sender may close; nothing more is written to it
            // it used one credit per DATA message and one for the END
            return (int) Math.max(0, credits.credited(source) - announced[source] - 1);
        } finally {
            sourceLocks[source].unlock();
        }
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        if (retireOnRelease.get(buffer.index()) == 1) {
            giveBack(buffer); // adaptive: surplus, consumed, back to the pool
            return;
        }
        repost(buffer, buffer.sourceNode(), true);
    }

    private void repost(ShuffleBuffer buffer, int source, boolean credit) {
        sourceLocks[source].lock();
        try {
            if (closed) {
                return;
            }
            counters.move(BufferCounters.State.CONSUME, BufferCounters.State.TRANSMIT);
            post(buffer);
            if (credit && ended.get(source) == 0) {
                credits.credit(source);
                if (credits.unwritten(source) >= config.creditWriteBackFrequency()) {
                    writeCredit(source, false);
                }
            }
        } finally {
            sourceLocks[source].unlock();
        }
    }

    private void post(ShuffleBuffer buffer) {
        queuePair.postReceive(buffer.index(), buffer.region(), buffer.regionOffset(), config.bufferBytes());
    }

    /** RDMA-writes the absolute credit into the sender's slot, inlined. Caller holds the source's lock. */
    private void writeCredit(int source, boolean last) {
        if (!credits.write(creditQueuePairs[source], source, last)) {
            throw failure.fail(
                    "a credit write failed (" + credits.failure() + "): node " + source + " failed or closed early");
        }
    }

    /** Credit writes posted so far, and how many waited for a send-queue slot (approximate). */
    public CreditWriter creditWriter() {
        return credits;
    }

    @Override
    public void abandon() {
        failure.abandon();
    }

    /**
     * Waits until the FINAL credit writes have completed, then frees everything. Without the wait a receiver whose
     * stream ended could close its credit queue pairs while a FINAL was still queued there (on {@code net}: not yet
     * sent by the progress thread of a busy host); the write was discarded, and its sender waited for the end of the
     * stream until its stall timeout ("did not confirm the end of the stream ... (messages lost?)"), although no
     * datagram was lost.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            awaitFinalCreditWrites();
        } finally {
            closeQueuePairsAndBuffers();
        }
    }

    /** After a complete stream (every source's FINAL written): waits for those writes, bounded by the stall timeout. */
    private void awaitFinalCreditWrites() {
        if (!streamEnded || failure.failed()) {
            return; // an aborted stream: its senders fail anyway
        }
        if (!credits.awaitSignaledWrites(config.stallTimeout())) {
            throw failure.fail("the FINAL credit writes did not complete within " + config.stallTimeout());
        }
    }

    private void closeQueuePairsAndBuffers() {
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
        credits.close();
        poolLock.lock();
        try {
            for (int i = 0; i < ownedCount; i++) {
                pool.giveBack(owned[i]);
                owned[i] = null;
            }
            ownedCount = 0;
        } finally {
            poolLock.unlock();
        }
    }

    @Override
    public long dataWaitNanos() {
        return dataWaitNanos.get();
    }

    @Override
    public long creditWrites() {
        return credits.writeCount();
    }

    @Override
    public String toString() {
        return "UdTwoSidedReceiveEndpoint[id=" + id + ", nodes=" + nodes + ", self=" + self + "]";
    }
}
