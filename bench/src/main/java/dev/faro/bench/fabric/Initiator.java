package dev.faro.bench.fabric;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePair;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The initiator's stream of requests for one point: keeps {@code window} requests outstanding, signals every
 * {@code signalInterval}-th (the others are unsignaled and retire with it, as in verbs), polls the completion queue
 * when the window is full, and cycles through the working set one message-sized slot after the other. For
 * two-sided operations it also obeys the target's credit (see {@link CreditDescriptor}).
 *
 * <p>Data path: allocation-free after construction, on the worker's main thread only. Each {@link #measure} runs
 * until its deadline passes, then drains the outstanding requests.
 */
final class Initiator {

    /** A stream that makes no progress this long fails instead of hanging (the fabric's peer timeout is shorter). */
    private static final long STALL_TIMEOUT_NS = 10_000_000_000L;

    /** Empty polls between two looks at the clock. */
    private static final int IDLE_POLLS_PER_CLOCK_READ = 1024;

    private final CompletionQueue completionQueue;
    private final MemoryRegion local;
    private final MemorySegment credit;
    private final RemoteKey peerData;
    private final int window;
    private final int signalInterval;
    /** Wait in event mode once spinning found nothing (see {@link SpinThenYield#awaitsCompletions}). */
    private final boolean awaitWhenIdle;

    private final WorkRequest request = new WorkRequest();
    private final WorkCompletion[] completions;

    // The point being measured; set by prepare.
    private FabricOperation operation;
    private Opcode opcode;
    private QueuePair queuePair;
    private QueuePairAddress destination;
    private int sizeBytes;
    private int slots;
    private int nextSlot;

    /** SENDs posted in this point, counted from 1 like the target's credit. */
    private long sendsPosted;

    /** The last credit read from the credit word (cached: re-read only when exhausted). */
    private long creditLimit;

    /**
     * @param local the initiator's data region (the source of WRITE and SEND, the destination of READ)
     * @param credit the initiator's credit region, which the target writes
     * @param peerData the key of the target's data region
     */
    Initiator(
            CompletionQueue completionQueue,
            MemoryRegion local,
            MemoryRegion credit,
            RemoteKey peerData,
            int window,
            boolean awaitWhenIdle) {
        this.awaitWhenIdle = awaitWhenIdle;
        this.completionQueue = completionQueue;
        this.local = local;
        this.credit = credit.segment();
        this.peerData = peerData;
        this.window = window;
        this.signalInterval = signalInterval(window);
        this.completions = WorkCompletion.array(window);
    }

    /** Every how many requests one is signaled: a quarter of the window, so polling overlaps posting. */
    static int signalInterval(int window) {
        return Math.max(1, window / 4);
    }

    /** The window rounded down to whole signal intervals: the requests that may be outstanding. */
    static int effectiveWindow(int window) {
        int interval = signalInterval(window);
        return window / interval * interval;
    }

    /**
     * Sets up a point. Two-sided operations start with no credit: the credit word was zeroed in PREPARE and the
     * target writes it once its receives are posted.
     *
     * @param rc the point's RC queue pair (WRITE, READ, RC SEND)
     * @param ud the point's UD queue pair, or null
     * @param udDestination the target's UD address, or null
     */
    void prepare(
            FabricOperation newOperation,
            int newSizeBytes,
            RcQueuePair rc,
            QueuePair ud,
            QueuePairAddress udDestination) {
        this.operation = newOperation;
        this.opcode = newOperation.opcode();
        this.queuePair = newOperation.isUd() ? ud : rc;
        this.destination = newOperation.isUd() ? udDestination : null;
        this.sizeBytes = newSizeBytes;
        this.slots = (int) Math.min(Integer.MAX_VALUE, local.lengthBytes() / newSizeBytes);
        this.nextSlot = 0;
        this.sendsPosted = 0;
        this.creditLimit = 0;
    }

    /** Streams the prepared operation for {@code durationNs}, then drains; returns what moved. */
    Measurement measure(long durationNs) {
        int effectiveWindow = effectiveWindow(window);
        boolean twoSided = operation.isTwoSided();
        long posted = 0;
        long retired = 0;
        long polls = 0;
        long creditWaits = 0;
        boolean waitingForCredit = false;
        boolean running = true;
        int idlePolls = 0;
        long idleSinceNs = 0;
        long startNs = System.nanoTime();
        long deadlineNs = startNs + durationNs;
        while (running || retired < posted) {
            if (running && posted - retired + signalInterval <= effectiveWindow) {
                if (!twoSided || hasCredit()) {
                    postBatch(posted);
                    posted += signalInterval;
                    waitingForCredit = false;
                    idlePolls = 0;
                    running = System.nanoTime() - deadlineNs < 0;
                    continue;
                }
                if (!waitingForCredit) {
                    waitingForCredit = true;
                    creditWaits++;
                }
            }
            int count = awaitWhenIdle && idlePolls >= SpinThenYield.SPINS
                    ? completionQueue.await(completions, SpinThenYield.AWAIT_MILLIS, TimeUnit.MILLISECONDS)
                    : completionQueue.poll(completions);
            polls++;
            if (count > 0) {
                for (int i = 0; i < count; i++) {
                    check(completions[i]);
                }
                retired += (long) count * signalInterval;
                idlePolls = 0;
            } else {
                if (awaitWhenIdle && idlePolls >= SpinThenYield.SPINS) {
                    ++idlePolls; // the await above was the idle turn
                } else {
                    SpinThenYield.idle(++idlePolls);
                }
                if (idlePolls % IDLE_POLLS_PER_CLOCK_READ == 0) {
                    long nowNs = System.nanoTime();
                    if (idlePolls == IDLE_POLLS_PER_CLOCK_READ) {
                        idleSinceNs = nowNs;
                    } else if (nowNs - idleSinceNs > STALL_TIMEOUT_NS) {
                        throw stalled(posted, retired);
                    }
                    running = running && nowNs - deadlineNs < 0;
                }
            }
        }
        long nanos = System.nanoTime() - startNs;
        return new Measurement(posted * sizeBytes, posted, nanos, polls, creditWaits);
    }

    /** Whether the target has posted receives for the next {@code signalInterval} SENDs. */
    private boolean hasCredit() {
        long needed = sendsPosted + signalInterval;
        if (needed - creditLimit <= 0) {
            return true;
        }
        creditLimit = CreditDescriptor.receivesPosted(credit);
        return needed - creditLimit <= 0;
    }

    /** Posts {@code signalInterval} requests; only the last is signaled. */
    private void postBatch(long firstRequestId) {
        boolean oneSided = !operation.isTwoSided();
        for (int i = 0; i < signalInterval; i++) {
            long offset = (long) nextSlot * sizeBytes;
            nextSlot = nextSlot + 1 == slots ? 0 : nextSlot + 1;
            request.clear()
                    .requestId(firstRequestId + i)
                    .opcode(opcode)
                    .signaled(i == signalInterval - 1)
                    .local(local, offset, sizeBytes);
            if (oneSided) {
                request.remote(peerData, offset);
            } else if (destination != null) {
                request.destination(destination);
            }
            queuePair.postSend(request);
        }
        if (!oneSided) {
            sendsPosted += signalInterval;
        }
    }

    private void check(WorkCompletion completion) {
        if (!completion.status().isSuccess()) {
            throw new IllegalStateException(operation.label() + " of " + sizeBytes + " B completed with "
                    + completion.status() + ": " + completion);
        }
    }

    private IllegalStateException stalled(long posted, long retired) {
        return new IllegalStateException(String.format(
                "%s of %d B made no progress for %d s: %d requests posted, %d completed, %d SENDs posted this"
                        + " point, credit limit %d",
                operation.label(),
                sizeBytes,
                STALL_TIMEOUT_NS / 1_000_000_000L,
                posted,
                retired,
                sendsPosted,
                CreditDescriptor.receivesPosted(credit)));
    }

    /**
     * Writes the whole of the target's data region once, in large WRITEs on {@code rc}, so that its pages are mapped
     * in this process before anything is timed. Coordination code (runs once per worker).
     */
    void touchRemoteRegion(RcQueuePair rc, int chunkBytes) {
        long length = Math.min(local.lengthBytes(), peerData.lengthBytes());
        long requestId = 0;
        for (long offset = 0; offset < length; offset += chunkBytes) {
            int bytes = (int) Math.min(chunkBytes, length - offset);
            request.clear()
                    .requestId(requestId++)
                    .opcode(Opcode.WRITE)
                    .local(local, offset, bytes)
                    .remote(peerData, offset);
            rc.postSend(request);
            int count;
            long deadlineNs = System.nanoTime() + STALL_TIMEOUT_NS;
            while ((count = completionQueue.poll(completions, 1)) == 0) {
                if (System.nanoTime() - deadlineNs > 0) {
                    throw new IllegalStateException("touching the target's region: no WRITE completion in time");
                }
                Thread.onSpinWait();
            }
            if (!completions[0].status().isSuccess() || count != 1) {
                throw new IllegalStateException("touching the target's region failed: " + completions[0]);
            }
        }
    }
}
