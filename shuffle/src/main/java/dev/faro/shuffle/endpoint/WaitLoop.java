package dev.faro.shuffle.endpoint;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The one wait loop of the shuffle endpoints: check the endpoint's failure, try a {@link Step}, and until the step ends
 * the wait, restart the stall clock on progress or idle; after {@code stallTimeout} without any progress, report a
 * stall. Every ACQUIRE, PUTDATA credit and GETDATA wait of the eight designs, their close protocols and the TCP
 * baseline run through {@link #await}.
 *
 * <p>Idle strategy: spin {@value #SPINS} times, then park {@value #PARK_NANOS} ns at a time. No {@code Thread.yield()}
 * phase: on a host with more busy threads than cores (a local cluster: every node's SHUFFLE and RECEIVE threads on the
 * same cores) a yielding thread is often picked again at once and keeps the core from the thread that would produce
 * the data or credit it waits for. Measured with {@code faro bench shuffle throughput --nodes 2} (MESQ/SR, MEMQ/SR,
 * SEMQ/RD, three alternating rounds on a loaded 2-core host): 100 spins, 100 yields, 20 us parks gave 0.11 / 0.15 /
 * 0.12 GB/s per node; 20 spins and 5 us parks gave 0.30 / 0.31 / 0.31.
 *
 * <p>Stall: progress is the wait's own ({@link #PROGRESS}) or, with a {@link ProgressSignal}, anything that changes
 * the signal: other threads of this node moving batches, or another node's progress relayed by the cluster's
 * heartbeat. A wait that lasts long while the query progresses elsewhere (a peer still computing the pipeline that
 * feeds this exchange) is therefore no stall; one during which nothing moves anywhere is, after {@code stallTimeout}.
 * The clock is read every 64 idles.
 *
 * <p>With a {@code blockedNanos} counter, the time from the wait's first idle to its end is added to it: the time
 * the calling thread was blocked (waiting for a buffer, credit or data), a resource counter of the experiments.
 *
 * <p>Thread-safe: one instance per endpoint serves all its threads, since a wait's state lives in {@link #await}'s
 * locals (so waits may also nest: a step may post, and a post may wait for room). Data path: allocation-free; steps
 * of steady-state waits are created once, with their endpoint (a bound method reference in a final field).
 */
public final class WaitLoop {

    /** One try of a wait. */
    @FunctionalInterface
    public interface Step {
        /**
         * Tries to end the wait: returns its result (any value but the codes below and {@link #STALLED}), or
         * {@link #IDLE}, {@link #PROGRESS} or {@link #BLOCKED} to go on. May throw to fail the wait.
         *
         * @param argument what the caller passed to {@link #await} (a node, or unused)
         */
        int attempt(int argument);
    }

    /** Step code: nothing happened; idle, then try again. */
    public static final int IDLE = Integer.MIN_VALUE;
    /** Step code: something moved (a completion, a freed buffer) but the wait is not over; restart the clock. */
    public static final int PROGRESS = Integer.MIN_VALUE + 1;
    /** Step code: the step blocked by other means (a selector, a timed queue poll) and nothing moved; no idle. */
    public static final int BLOCKED = Integer.MIN_VALUE + 2;
    /** {@link #await}'s result when the wait saw no progress for the stall timeout. */
    public static final int STALLED = Integer.MIN_VALUE + 3;
    /** A result for waits that have none to return. */
    public static final int DONE = 0;
    /** A receive wait's result when the stream has ended (results of receive waits are buffer indexes otherwise). */
    public static final int END_OF_STREAM = -1;

    /** Busy polls before the first park: enough to catch a completion already on its way. */
    public static final int SPINS = 20;
    /** One park; the kernel's timer slack makes the actual sleep longer (about 50 us more by default). */
    public static final long PARK_NANOS = 5_000;

    /** The failure of loops outside an endpoint: never recorded, so checking it never throws. */
    private static final EndpointFailure NEVER_FAILS = new EndpointFailure("none");

    private final EndpointFailure failure;
    private final long timeoutNs;
    private final ProgressSignal progress;
    private final String stall;

    /** The loop of endpoints with {@code config}'s stall timeout and progress signal, checking {@code failure}. */
    public WaitLoop(EndpointFailure failure, EndpointConfig config) {
        this(failure, config.stallTimeout(), config.progress());
    }

    /** A loop that counts the wait's own progress and {@code progress}'s, checking {@code failure}. */
    public WaitLoop(EndpointFailure failure, Duration stallTimeout, ProgressSignal progress) {
        this.failure = failure;
        this.timeoutNs = stallTimeout.toNanos();
        this.progress = progress;
        this.stall = describeStall(stallTimeout, progress);
    }

    /** A loop that checks no endpoint failure and counts only the wait's own progress. */
    public WaitLoop(Duration stallTimeout) {
        this(NEVER_FAILS, stallTimeout, ProgressSignal.NONE);
    }

    /**
     * Runs {@code step} until it returns a result, and returns it; or {@link #STALLED} after the stall timeout without
     * progress (the caller fails with its own words and {@link #stall()}). Rethrows the endpoint's recorded failure
     * before every try.
     *
     * @param blockedNanos where the time blocked goes (see the class comment); null: not counted
     */
    public int await(Step step, int argument, AtomicLong blockedNanos) {
        int idles = 0;
        long startNs = 0;
        long seenProgress = 0;
        long firstIdleNs = 0;
        try {
            while (true) {
                failure.check();
                int result = step.attempt(argument);
                if (result == PROGRESS) {
                    idles = 0;
                    startNs = 0;
                    continue;
                }
                if (result != IDLE && result != BLOCKED) {
                    return result;
                }
                if (result == IDLE) {
                    if (firstIdleNs == 0 && blockedNanos != null) {
                        firstIdleNs = System.nanoTime();
                    }
                    if (idles++ < SPINS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.parkNanos(PARK_NANOS);
                    }
                    if ((idles & 63) != 0) {
                        continue;
                    }
                }
                long now = System.nanoTime();
                long seen = progress.snapshot();
                if (startNs == 0 || seen != seenProgress) {
                    startNs = now;
                    seenProgress = seen;
                } else if (now - startNs > timeoutNs) {
                    return STALLED;
                }
            }
        } finally {
            if (firstIdleNs != 0) {
                blockedNanos.addAndGet(System.nanoTime() - firstIdleNs);
            }
        }
    }

    /**
     * One non-blocking try of {@code step} (the yielding form of {@link #await}, for a caller that waits elsewhere,
     * e.g. a driver that yields its thread): rethrows the endpoint's failure, tries the step again while it reports
     * {@link #PROGRESS}, and returns its result, or {@link #IDLE} when it would have to wait. Data path:
     * allocation-free.
     */
    public int attempt(Step step, int argument) {
        while (true) {
            failure.check();
            int result = step.attempt(argument);
            if (result == PROGRESS) {
                continue;
            }
            return result == BLOCKED ? IDLE : result;
        }
    }

    /**
     * As {@link #await}, but a stall fails the endpoint with "{@code what} for {@link #stall()}{@code hint}" (constant
     * strings: the message is built only on failure).
     */
    public int awaitOrFail(Step step, int argument, AtomicLong blockedNanos, String what, String hint) {
        int result = await(step, argument, blockedNanos);
        if (result == STALLED) {
            throw failure.fail(what + " for " + stall + hint);
        }
        return result;
    }

    /** Records {@code message} as the endpoint's failure (unless one is recorded already) and throws the winner. */
    public RuntimeException fail(String message) {
        throw failure.fail(message);
    }

    /** How a stall of this loop reads in errors: "10 s with no progress anywhere in the query". */
    public String stall() {
        return stall;
    }

    /** "10 s with no progress anywhere in the query" (or "10 s without progress" with no signal). */
    public static String describeStall(Duration timeout, ProgressSignal progress) {
        String amount = timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
        return amount
                + (progress == ProgressSignal.NONE ? " without progress" : " with no progress anywhere in the query");
    }

    /**
     * GETDATA's wait: returns a buffer index or {@link #END_OF_STREAM}; a stall fails the endpoint with "no data
     * arrived for 10 s ... (1 of 3 sources finished; waiting for nodes 0, 2)", read from {@code finished} (per source
     * node; racy reads, for the message only).
     */
    public int awaitData(Step step, AtomicLong blockedNanos, boolean[] finished) {
        int result = await(step, 0, blockedNanos);
        if (result == STALLED) {
            StringBuilder waiting = new StringBuilder();
            int count = 0;
            for (int node = 0; node < finished.length; node++) {
                if (!finished[node]) {
                    waiting.append(count++ == 0 ? "" : ", ").append(node);
                }
            }
            throw failure.fail("no data arrived for " + stall + " (" + (finished.length - count) + " of "
                    + finished.length + " sources finished; waiting for "
                    + (count == 0 ? "no node" : (count == 1 ? "node " : "nodes ") + waiting) + ")");
        }
        return result;
    }
}
