package dev.faro.bench.fabric;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePair;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The target's side of a two-sided stream: a busy loop on its own thread that keeps {@code depth} receives posted,
 * reposts each one as its completion arrives, and returns credit to the initiator by an RDMA WRITE of the absolute
 * count of receives posted (see {@link CreditDescriptor}) every {@code creditInterval} reposts.
 *
 * <pre>
 *  initiator                                 target (Receiver thread)
 *     │                                        │ post depth receives
 *     │ ◄── WRITE credit = depth ─────────────  │
 *     │ ── SEND × n (n ≤ credit) ────────────►  │ poll RECEIVE completions, repost each
 *     │ ◄── WRITE credit = receives posted ───  │ every creditInterval reposts (absolute, so coalescing is safe)
 * </pre>
 * Receive buffers cycle through the target's data region one message-sized slot after the other.
 *
 * <p>Data path: allocation-free after construction. Threads: {@link #start} and {@link #stop} run on the worker's
 * main thread; everything else on the receiver thread.
 */
final class Receiver implements Runnable {

    private static final long START_TIMEOUT_SECONDS = 10;

    private final CompletionQueue completionQueue;
    private final QueuePair receiveQueuePair;
    private final RcQueuePair creditQueuePair;
    private final MemoryRegion data;
    private final RemoteKey peerCredit;
    private final int sizeBytes;
    private final int depth;
    private final int creditInterval;
    private final int creditWriteDepth;
    private final int slots;
    /** Wait in event mode once spinning found nothing (see {@link SpinThenYield#awaitsCompletions}). */
    private final boolean awaitWhenIdle;

    private final WorkCompletion[] completions;
    private final WorkRequest creditWrite = new WorkRequest();
    private final MemorySegment creditPayload = Arena.ofAuto().allocate(CreditDescriptor.RECEIVES_POSTED_LENGTH);
    private final CountDownLatch started = new CountDownLatch(1);
    private final Thread thread;

    /** Set by the main thread to end the loop. */
    private volatile boolean stopRequested;

    /** The first failure of the receiver thread; read by the main thread after {@link #started} or a join. */
    private volatile Throwable failure;

    // Receiver thread only (read by the main thread after the join).
    private long receivesPosted;
    private long received;
    private long creditWrites;
    private long creditWritesOutstanding;
    private int sinceCredit;
    private int nextSlot;

    /**
     * @param receiveQueuePair where the SENDs arrive (the RC queue pair, or the UD one)
     * @param creditQueuePair the RC queue pair connected to the initiator, for the credit WRITEs
     * @param creditWriteDepth credit WRITEs that may be outstanding (at most the credit queue pair's send depth)
     */
    Receiver(
            CompletionQueue completionQueue,
            QueuePair receiveQueuePair,
            RcQueuePair creditQueuePair,
            MemoryRegion data,
            RemoteKey peerCredit,
            int sizeBytes,
            int depth,
            int creditInterval,
            int creditWriteDepth,
            boolean awaitWhenIdle) {
        this.awaitWhenIdle = awaitWhenIdle;
        if (creditInterval < 1 || creditInterval > depth) {
            throw new IllegalArgumentException(
                    "creditInterval must be in [1, depth=" + depth + "] or the initiator starves: " + creditInterval);
        }
        this.completionQueue = completionQueue;
        this.receiveQueuePair = receiveQueuePair;
        this.creditQueuePair = creditQueuePair;
        this.data = data;
        this.peerCredit = peerCredit;
        this.sizeBytes = sizeBytes;
        this.depth = depth;
        this.creditInterval = creditInterval;
        this.creditWriteDepth = creditWriteDepth;
        this.slots = (int) Math.min(Integer.MAX_VALUE, data.lengthBytes() / sizeBytes);
        this.completions = WorkCompletion.array(depth + creditWriteDepth);
        this.thread = Thread.ofPlatform().daemon().name("faro-bench-receiver").unstarted(this);
    }

    /** Starts the loop and returns once the first receives are posted and the first credit is written. */
    void start() throws InterruptedException {
        thread.start();
        if (!started.await(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            stopRequested = true;
            throw new IllegalStateException("the receiver did not start within " + START_TIMEOUT_SECONDS + " s");
        }
        if (failure != null) {
            throw new IllegalStateException("the receiver failed to start: " + failure, failure);
        }
    }

    /** Ends the loop and returns what it did; rethrows the loop's failure, if any. */
    Statistics stop() throws InterruptedException {
        stopRequested = true;
        thread.join(TimeUnit.SECONDS.toMillis(START_TIMEOUT_SECONDS));
        if (thread.isAlive()) {
            throw new IllegalStateException("the receiver did not stop within " + START_TIMEOUT_SECONDS + " s");
        }
        if (failure != null) {
            throw new IllegalStateException("the receiver failed: " + failure, failure);
        }
        return new Statistics(received, creditWrites);
    }

    /** What the receiver did in one point. */
    record Statistics(long received, long creditWrites) {}

    @Override
    public void run() {
        try {
            for (int i = 0; i < depth; i++) {
                postReceive();
            }
            writeCredit();
            started.countDown();
            int idleTurns = 0;
            while (!stopRequested) {
                int count = awaitWhenIdle && idleTurns >= SpinThenYield.SPINS
                        ? completionQueue.await(completions, SpinThenYield.AWAIT_MILLIS, TimeUnit.MILLISECONDS)
                        : completionQueue.poll(completions);
                for (int i = 0; i < count; i++) {
                    onCompletion(completions[i]);
                }
                if (sinceCredit >= creditInterval && creditWritesOutstanding < creditWriteDepth) {
                    writeCredit();
                }
                idleTurns = count == 0 ? idleTurns + 1 : 0;
                if (idleTurns > 0 && !(awaitWhenIdle && idleTurns > SpinThenYield.SPINS)) {
                    SpinThenYield.idle(idleTurns);
                }
            }
        } catch (Throwable t) {
            failure = t;
            started.countDown();
            if (t instanceof Error error) {
                throw error;
            }
        }
    }

    private void onCompletion(WorkCompletion completion) {
        if (!completion.status().isSuccess()) {
            throw new IllegalStateException("target completion failed: " + completion);
        }
        if (completion.opcode() == Opcode.RECEIVE) {
            received++;
            postReceive();
            sinceCredit++;
        } else if (completion.opcode() == Opcode.WRITE) {
            creditWritesOutstanding--;
        }
    }

    private void postReceive() {
        long offset = (long) nextSlot * sizeBytes;
        nextSlot = nextSlot + 1 == slots ? 0 : nextSlot + 1;
        receiveQueuePair.postReceive(receivesPosted, data, offset, sizeBytes);
        receivesPosted++;
    }

    /** Tells the initiator how many receives are posted in all: one 8-byte inline WRITE, signaled. */
    private void writeCredit() {
        CreditDescriptor.encode(creditPayload, receivesPosted);
        creditWrite
                .clear()
                .requestId(creditWrites)
                .opcode(Opcode.WRITE)
                .inline(creditPayload)
                .remote(peerCredit, CreditDescriptor.RECEIVES_POSTED_OFFSET);
        creditQueuePair.postSend(creditWrite);
        creditWrites++;
        creditWritesOutstanding++;
        sinceCredit = 0;
    }
}
