package dev.faro.shuffle.protocol;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePair;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.shuffle.endpoint.WaitLoop;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receiving side of the stateless credit protocol (TODS19 §5.2): per source, the absolute number of receives
 * posted so far, written back into the sender's credit slot ({@link CreditDescriptor}) by an inlined 8-byte RDMA
 * WRITE. Every {@value #SIGNAL_EVERY} writes one is signaled, so the queue pair's send slots come back; the FINAL
 * write is always signaled.
 *
 * <p>Send-queue accounting: the queue pairs that carry credit writes send their completions to this writer's own
 * completion queue ({@link #completionQueue()}, to be given as their send completion queue), which the writer polls
 * itself before every write. As in verbs, an unsignaled write holds its slot until a later signaled one's completion
 * is polled, so a writer that left the polling to the data path (which polls only when its consumer runs dry) could
 * post {@value #SEND_DEPTH} writes between two polls and overflow the send queue ({@code QUEUE_FULL}; issue 6, seen
 * with 256 buffers per peer and a credit write per receive). A write that finds its send queue full polls until the
 * oldest signaled write completes: never longer than one write's round trip, since a full window always holds
 * {@value #SEND_DEPTH} / {@value #SIGNAL_EVERY} signaled writes.
 *
 * <p>Thread-safety: calls for one source must be serialized by the caller (the endpoints hold a per-source lock);
 * different sources may be written concurrently (the window accounting and the completion queue are under the
 * writer's lock). Data path: allocation-free.
 */
public final class CreditWriter implements AutoCloseable {

    /** The send depth of a queue pair that carries credit writes. */
    public static final int SEND_DEPTH = 64;

    static final int SIGNAL_EVERY = 16;

    private final int slot;
    private final RemoteKey[] keys;
    private final MemorySegment[] scratch;
    private final WorkRequest[] requests;
    private final long[] credited;
    private final long[] written;
    private final CompletionQueue completionQueue;
    private final WorkCompletion[] completions = WorkCompletion.array(16);
    private final ReentrantLock lock = new ReentrantLock();
    // Window per source, guarded by lock: writes posted, writes whose slot is free again, and the post numbers of
    // signaled writes not yet completed (FIFO: one RC queue pair completes in posting order).
    private final long[] posted;
    private final long[] retired;
    private final long[] lastSignaled;
    private final long[][] signaled;
    private final int[] signaledHead;
    private final int[] signaledCount;
    /** The first failed credit write's status, or null; guarded by lock. */
    private CompletionStatus failedStatus;

    private int failedSource = -1;
    /** Credit writes posted, and writes that found their send queue full and waited; approximate (racy reads). */
    private volatile long writeCount;

    private volatile long fullWaits;

    /**
     * @param fabric creates the completion queue of the credit writes
     * @param sources the sending nodes
     * @param slot the credit slot this receiver owns at every sender (its node index)
     */
    public CreditWriter(Fabric fabric, int sources, int slot) {
        this.slot = slot;
        this.keys = new RemoteKey[sources];
        MemorySegment words = Arena.ofAuto().allocate(8L * sources, 8);
        this.scratch = new MemorySegment[sources];
        this.requests = new WorkRequest[sources];
        for (int source = 0; source < sources; source++) {
            scratch[source] = words.asSlice(8L * source, 8);
            requests[source] = new WorkRequest();
        }
        this.credited = new long[sources];
        this.written = new long[sources];
        this.posted = new long[sources];
        this.retired = new long[sources];
        this.lastSignaled = new long[sources];
        this.signaled = new long[sources][SEND_DEPTH];
        this.signaledHead = new int[sources];
        this.signaledCount = new int[sources];
        // flushed on error, every posted write may complete (signaled or not)
        this.completionQueue = fabric.createCompletionQueue(sources * SEND_DEPTH);
    }

    /** The send completion queue every credit-carrying queue pair of this writer must use. */
    public CompletionQueue completionQueue() {
        return completionQueue;
    }

    /** Where {@code source}'s credit words live (its credit region). */
    public void connect(int source, RemoteKey key) {
        keys[source] = key;
    }

    /**
     * Starts the next stream (a recycled endpoint): no receive credited or written to any source. The send-queue
     * window is kept: it counts the queue pairs' real slots. Only once every signaled write completed.
     */
    public void resetCredits() {
        lock.lock();
        try {
            Arrays.fill(credited, 0);
            Arrays.fill(written, 0);
        } finally {
            lock.unlock();
        }
    }

    /** Counts one more receive posted for {@code source}. */
    public void credit(int source) {
        credited[source]++;
    }

    /** Receives credited to {@code source} so far. */
    public long credited(int source) {
        return credited[source];
    }

    /** Credits not yet written back to {@code source}. */
    public long unwritten(int source) {
        return credited[source] - written[source];
    }

    /** Credit writes posted so far (all sources); approximate. */
    public long writeCount() {
        return writeCount;
    }

    /** Credit writes that found their send queue full and polled for a slot first; approximate. */
    public long fullWaits() {
        return fullWaits;
    }

    /**
     * Writes the credit back on {@code queuePair} (connected to {@code source}); FINAL when {@code last}. Returns
     * false, writing nothing, when a credit write failed (the queue pair broke): the caller fails the shuffle and
     * names {@link #failure()}.
     */
    public boolean write(QueuePair queuePair, int source, boolean last) {
        lock.lock();
        try {
            reap();
            if (posted[source] - retired[source] >= SEND_DEPTH) {
                fullWaits++;
                while (posted[source] - retired[source] >= SEND_DEPTH) {
                    if (failedStatus != null
                            || queuePair.state() == QueuePairState.ERROR
                            || queuePair.state() == QueuePairState.CLOSED) {
                        break;
                    }
                    Thread.onSpinWait();
                    reap();
                }
            }
            if (failedStatus != null || posted[source] - retired[source] >= SEND_DEPTH) {
                if (failedStatus == null) {
                    failedStatus = CompletionStatus.FLUSHED;
                    failedSource = source;
                }
                return false;
            }
            long word = credited[source] | (last ? CreditDescriptor.FINAL_FLAG : 0);
            scratch[source].set(ValueLayout.JAVA_LONG, 0, word);
            long number = posted[source] + 1;
            boolean signal = last || number - lastSignaled[source] >= SIGNAL_EVERY;
            queuePair.postSend(requests[source]
                    .clear()
                    .requestId(source)
                    .opcode(Opcode.WRITE)
                    .inline(scratch[source])
                    .remote(keys[source], CreditDescriptor.slotOffset(slot))
                    .signaled(signal));
            posted[source] = number;
            if (signal) {
                signaled[source][(signaledHead[source] + signaledCount[source]) % SEND_DEPTH] = number;
                signaledCount[source]++;
                lastSignaled[source] = number;
            }
            written[source] = credited[source];
            writeCount++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every signaled write posted so far has completed (the FINAL writes are always signaled), or a write
     * failed (its queue pair broke: nothing more completes normally); false if {@code stallTimeout} passed first. A
     * receiver calls it after its stream ended and before it closes its credit queue pairs, because closing a queue
     * pair discards the requests it has not carried out yet (as destroying a verbs queue pair does): a FINAL write
     * still queued would never reach its sender, which would wait for it until its own stall timeout.
     */
    public boolean awaitSignaledWrites(Duration stallTimeout) {
        return new WaitLoop(stallTimeout).await(this::signaledWritesDone, 0, null) != WaitLoop.STALLED;
    }

    /** A step of {@link #awaitSignaledWrites}. */
    private int signaledWritesDone(int unused) {
        return hasSignaledWritesInFlight() ? WaitLoop.IDLE : WaitLoop.DONE;
    }

    /** Whether a signaled write has not completed yet; false once a write failed. Polls the completions first. */
    private boolean hasSignaledWritesInFlight() {
        lock.lock();
        try {
            reap();
            if (failedStatus != null) {
                return false;
            }
            for (int count : signaledCount) {
                if (count > 0) {
                    return true;
                }
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds lock: polls this writer's completions and frees the slots up to each signaled write. */
    private void reap() {
        int count;
        while ((count = completionQueue.poll(completions)) > 0) {
            for (int i = 0; i < count; i++) {
                WorkCompletion completion = completions[i];
                int source = (int) completion.requestId();
                if (!completion.status().isSuccess()) {
                    if (failedStatus == null) {
                        failedStatus = completion.status();
                        failedSource = source;
                    }
                    continue;
                }
                if (signaledCount[source] == 0) {
                    throw new IllegalStateException(
                            "a credit write completion without a signaled write: source=" + source);
                }
                retired[source] = signaled[source][signaledHead[source]];
                signaledHead[source] = (signaledHead[source] + 1) % SEND_DEPTH;
                signaledCount[source]--;
            }
        }
    }

    /** Why writes fail, for the caller's error message: {@code "none"} while none did. */
    public String failure() {
        lock.lock();
        try {
            return failedStatus == null ? "none" : "credit write to node " + failedSource + ": " + failedStatus;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the completion queue; the credit queue pairs must be closed first. */
    @Override
    public void close() {
        completionQueue.close();
    }
}
