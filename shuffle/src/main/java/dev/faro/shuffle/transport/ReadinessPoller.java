package dev.faro.shuffle.transport;

import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.WaitLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * What completes the readiness stages of senders and receivers whose driver yielded its thread instead of waiting
 * ({@link ExchangeSender#whenReady}, {@link ExchangeReceiver#whenReady}), for transports whose progress is polled: the
 * eight designs poll completion queues, credit words and rings, and nothing on the waiting node runs when a peer's
 * buffer or credit lands; TCP's receiver reads its sockets only when polled, and its sender pushes a frame the socket
 * did not take only when called. One daemon thread per process retries, for every waiter, the very call that could not
 * proceed ({@link Waiter#retry}: a non-blocking acquire, send, finish or poll, whose result the waiter keeps for its
 * owner) and completes the waiter's stage when it succeeds. So the retry is exact (no readiness guessed from a
 * counter), and the owner's next call finds its result.
 *
 * <p>Idle strategy as the endpoints' {@code WaitLoop}: a few spins, then parks asked for 5 us (about 55-70 us on
 * Linux with its default timer slack), growing (doubling every 64
 * idle rounds) up to 1 ms while nothing becomes ready, so that a long wait (a peer computing the pipeline that feeds
 * the exchange) costs about a thousand wake-ups a second, not a core; the thread parks untimed while no one waits.
 * One thread replaces the wait loops of every waiting driver thread. Stall: a waiter that waited for its stall
 * timeout while its {@link ProgressSignal} did not change is told so ({@link Waiter#stalled}) and its stage completes;
 * the owner then fails with the stall.
 *
 * <p>Any transport whose progress is polled may use it (the multiplexer's, the middleware's and the zero-sided
 * switch's exchanges do).
 *
 * <p>Threads: {@link Waiter#whenReady} from the owner's thread; a waiter's retry runs on the poller thread while its
 * owner is yielded (the stage's completion orders the retry's writes before the owner's next call). Coordination
 * code: a waiter allocates one stage per wait (not per buffer; a driver that never waits allocates nothing here).
 */
public final class ReadinessPoller {

    private static final int SPINS = WaitLoop.SPINS;
    private static final long MIN_PARK_NANOS = WaitLoop.PARK_NANOS;
    private static final long MAX_PARK_NANOS = 1_000_000;

    private static final ConcurrentLinkedQueue<Waiter> INCOMING = new ConcurrentLinkedQueue<>();
    private static final LongAdder WAITS = new LongAdder();
    private static final Thread THREAD =
            Thread.ofPlatform().daemon().name("faro-exchange-poller").unstarted(ReadinessPoller::run);

    static {
        THREAD.start();
    }

    private ReadinessPoller() {}

    /**
     * A sender or receiver that can wait on the poller: it keeps its stall timeout and progress signal, and what the
     * poller found when a wait stalled. Subclasses implement {@link #retry}; a stalled wait is, by default, remembered
     * for the owner's next call ({@link #takeStall}), which then makes the blocking call so that the endpoint's own
     * wait loop fails it with its usual message; a subclass may record a failure instead ({@link #stalled}).
     */
    public abstract static class Waiter {
        private final long timeoutNanos;
        private final ProgressSignal progress;
        private CompletableFuture<Void> stage;
        private long sinceNanos;
        private long seenProgress;
        /** Set by the poller thread when a wait stalled; read by the owner after the stage completed. */
        private boolean stallPending;

        /** @param timeoutNanos how long a wait may see no change of {@code progress} before it stalls */
        protected Waiter(long timeoutNanos, ProgressSignal progress) {
            this.timeoutNanos = timeoutNanos;
            this.progress = progress;
        }

        /**
         * A stage that completes when this waiter's retry succeeds, fails, or stalls. The caller must not touch what
         * the retry touches until the stage completes.
         */
        public final CompletableFuture<Void> whenReady() {
            return await(this);
        }

        /** Retries the call that could not proceed; true when it did now (or failed: it throws). Poller thread. */
        protected abstract boolean retry();

        /**
         * The wait saw no progress anywhere for its stall timeout. Poller thread. By default remembered for the owner's
         * next call ({@link #takeStall}).
         */
        protected void stalled(String stall) {
            stallPending = true;
        }

        /** Whether the last wait stalled (and forgets it): the owner's next call should then block in the endpoint. */
        protected final boolean takeStall() {
            if (stallPending) {
                stallPending = false;
                return true;
            }
            return false;
        }
    }

    private static CompletableFuture<Void> await(Waiter waiter) {
        CompletableFuture<Void> stage = new CompletableFuture<>();
        waiter.stage = stage;
        waiter.sinceNanos = System.nanoTime();
        waiter.seenProgress = waiter.progress.snapshot();
        WAITS.increment();
        INCOMING.add(waiter);
        LockSupport.unpark(THREAD);
        return stage;
    }

    /**
     * Retries every waiter now instead of after the poller's current park: for a transport with a thread of its own
     * that sees a buffer land (hyper's network thread), so the waiting driver resumes without the park's latency. A
     * few atomic operations, a system call when the poller is parked.
     */
    public static void wake() {
        LockSupport.unpark(THREAD);
    }

    /** How many waits began in this process so far (each one a sender or receiver whose caller yielded). */
    public static long waits() {
        return WAITS.sum();
    }

    private static void run() {
        ArrayList<Waiter> active = new ArrayList<>();
        int idles = 0;
        while (true) {
            Waiter incoming;
            while ((incoming = INCOMING.poll()) != null) {
                active.add(incoming);
                idles = 0;
            }
            if (active.isEmpty()) {
                LockSupport.park();
                continue;
            }
            boolean checkClock = (idles & 63) == 0;
            long now = checkClock ? System.nanoTime() : 0;
            boolean ready = false;
            for (int i = active.size() - 1; i >= 0; i--) {
                Waiter waiter = active.get(i);
                boolean done;
                try {
                    done = waiter.retry();
                } catch (Throwable e) {
                    done = true; // the failure is recorded where the owner's next call meets it
                }
                if (!done && checkClock) {
                    long seen = waiter.progress.snapshot();
                    if (seen != waiter.seenProgress) {
                        waiter.seenProgress = seen;
                        waiter.sinceNanos = now;
                    } else if (now - waiter.sinceNanos > waiter.timeoutNanos) {
                        waiter.stalled(WaitLoop.describeStall(Duration.ofNanos(waiter.timeoutNanos), waiter.progress));
                        done = true;
                    }
                }
                if (done) {
                    Waiter last = active.removeLast();
                    if (i < active.size()) {
                        active.set(i, last);
                    }
                    waiter.stage.complete(null);
                    ready = true;
                }
            }
            if (ready) {
                idles = 0;
            } else if (idles++ < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, MIN_PARK_NANOS << Math.min(8, (idles - SPINS) >> 6)));
            }
        }
    }
}
