package dev.faro.shuffle.endpoint;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A wait loop's idle strategy and bound: spin {@value #SPINS} times, then park {@value #PARK_NANOS} ns at a time; and
 * after {@code stallTimeout} without any progress, report a stall. Progress is the wait's own ({@link #reset()}) or,
 * with a {@link ProgressSignal}, anything that changes the signal: other threads of this node moving batches, or
 * another node's progress relayed by the cluster's heartbeat. A wait that lasts long while the query progresses
 * elsewhere (a peer still computing the pipeline that feeds this exchange) is therefore no stall; one during which
 * nothing moves anywhere is, after {@code stallTimeout}. One instance per waiting call (a local variable), so it is
 * thread-confined.
 *
 * <p>No {@code Thread.yield()} phase: on a host with more busy threads than cores (a local cluster: every node's
 * SHUFFLE and RECEIVE threads on the same cores) a yielding thread is often picked again at once and keeps the core
 * from the thread that would produce the data or credit it waits for. Measured with {@code faro bench shuffle
 * throughput --nodes 2} (MESQ/SR, MEMQ/SR, SEMQ/RD, three alternating rounds on a loaded 2-core host): 100 spins, 100
 * yields, 20 us parks gave 0.11 / 0.15 / 0.12 GB/s per node; 20 spins and 5 us parks gave 0.30 / 0.31 / 0.31.
 *
 * <p>With a {@code blockedNanos} counter, {@link #stop()} adds the time from the call's first idle to now to it: the
 * time the calling thread was blocked (waiting for a buffer, credit or data), a resource counter of the experiments.
 */
public final class StallWatch {

    /** Busy polls before the first park: enough to catch a completion already on its way. */
    static final int SPINS = 20;
    /** One park; the kernel's timer slack makes the actual sleep longer (about 50 us more by default). */
    static final long PARK_NANOS = 5_000;

    private final long timeoutNs;
    private final AtomicLong blockedNanos;
    private final ProgressSignal progress;
    private long seenProgress;
    private long startNs;
    private long firstIdleNs;
    private int idles;

    /** A watch that counts only the wait's own progress. */
    public StallWatch(Duration stallTimeout) {
        this(stallTimeout, null, ProgressSignal.NONE);
    }

    /** A watch with {@code config}'s stall timeout and progress signal. */
    public StallWatch(EndpointConfig config) {
        this(config.stallTimeout(), null, config.progress());
    }

    /**
     * A watch with {@code config}'s stall timeout and progress signal that counts its blocked time into
     * {@code blockedNanos} on {@link #stop()} (null: not counted).
     */
    public StallWatch(EndpointConfig config, AtomicLong blockedNanos) {
        this(config.stallTimeout(), blockedNanos, config.progress());
    }

    /** A watch that counts the wait's own progress and {@code progress}'s. */
    public StallWatch(Duration stallTimeout, ProgressSignal progress) {
        this(stallTimeout, null, progress);
    }

    private StallWatch(Duration stallTimeout, AtomicLong blockedNanos, ProgressSignal progress) {
        this.timeoutNs = stallTimeout.toNanos();
        this.blockedNanos = blockedNanos;
        this.progress = progress;
    }

    /** How a stall of {@code config}'s endpoints reads in errors: "10 s with no progress anywhere in the query". */
    public static String describeStall(EndpointConfig config) {
        return describeStall(config.stallTimeout(), config.progress());
    }

    /** "10 s with no progress anywhere in the query" (or "10 s without progress" with no signal). */
    public static String describeStall(Duration timeout, ProgressSignal progress) {
        String amount = timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
        return amount + (progress == ProgressSignal.NONE ? " without progress"
                : " with no progress anywhere in the query");
    }

    /** "nodes 0, 2": the nodes whose {@code finished} entry is false (approximate: racy reads, for messages). */
    public static String unfinished(boolean[] finished) {
        StringBuilder nodes = new StringBuilder();
        int count = 0;
        for (int node = 0; node < finished.length; node++) {
            if (!finished[node]) {
                nodes.append(count++ == 0 ? "" : ", ").append(node);
            }
        }
        return count == 0 ? "no node" : (count == 1 ? "node " : "nodes ") + nodes;
    }

    /** Ends the waiting call: adds the time since its first idle, if it idled, to the blocked-time counter. */
    public void stop() {
        if (firstIdleNs != 0 && blockedNanos != null) {
            blockedNanos.addAndGet(System.nanoTime() - firstIdleNs);
            firstIdleNs = 0;
        }
    }

    /** Starts (or restarts after progress) the clock. */
    public void reset() {
        idles = 0;
        startNs = 0;
    }

    /** Idles once; returns false when the wait has made no progress for the stall timeout. */
    public boolean idle() {
        if (firstIdleNs == 0 && blockedNanos != null) {
            firstIdleNs = System.nanoTime();
        }
        if (idles < SPINS) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(PARK_NANOS);
        }
        idles++;
        return (idles & 63) != 0 || check();
    }

    /**
     * For a wait that blocks by other means (a selector, a queue poll): notes the time and the progress signal;
     * returns false when neither the wait ({@link #reset()}) nor the signal progressed for the stall timeout.
     */
    public boolean check() {
        long now = System.nanoTime();
        long seen = progress.snapshot();
        if (startNs == 0 || seen != seenProgress) {
            startNs = now;
            seenProgress = seen;
            return true;
        }
        return now - startNs <= timeoutNs;
    }
}
