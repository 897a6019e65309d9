package dev.faro.zerosided;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/**
 * Runs agents (a NIC's or the switch's {@code doWork()}) composed on one platform thread until closed, with a
 * spin → yield → park idle strategy when a whole pass found no work, or, given a waiter (e.g. {@code
 * PacketLink::awaitDatagram} of the link the agents poll), spin → wait on it: the thread then sleeps until its next
 * packet arrives instead of until a timer fires, and burns no CPU in yields other threads of a busy host need. The
 * first failure of an agent stops the thread and is kept ({@link #failure()}).
 *
 * <p>Coordination code around a data-path loop.
 */
public final class AgentRunner implements AutoCloseable {

    private static final int SPINS = 100;
    /**
     * Idle passes before a waiter is called: few, since the waiter returns as soon as a packet arrives, and each pass
     * runs every agent (the switch's evaluates its recirculated threads): a hundred passes of a switch with sixteen
     * endpoints cost it more CPU than the packets it then forwarded, on a core it shares with the NICs (Fig. 6 pinned).
     */
    private static final int SPINS_BEFORE_WAIT = 8;

    private static final int YIELDS = 100;
    private static final long PARK_NS = 50_000;
    private static final long WAIT_NS = 1_000_000; // bounds the wait, so timers (deadline scans, commands) still run

    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running = true;

    /** Starts a thread named {@code name} running {@code agents} round robin; idle, it spins, yields, then parks. */
    public AgentRunner(String name, List<IntSupplier> agents) {
        this(name, agents, null);
    }

    /**
     * Starts a thread named {@code name} running {@code agents} round robin; idle, it spins, then calls {@code waiter}
     * with a timeout in nanoseconds (about a millisecond) until a pass finds work.
     */
    public AgentRunner(String name, List<IntSupplier> agents, LongConsumer waiter) {
        List<IntSupplier> copy = List.copyOf(agents);
        this.thread = Thread.ofPlatform().name(name).daemon().start(() -> run(copy, waiter));
    }

    private void run(List<IntSupplier> agents, LongConsumer waiter) {
        int idle = 0;
        try {
            while (running) {
                int work = 0;
                for (IntSupplier agent : agents) {
                    work += agent.getAsInt();
                }
                if (work > 0) {
                    idle = 0;
                } else if (++idle <= (waiter != null ? SPINS_BEFORE_WAIT : SPINS)) {
                    Thread.onSpinWait();
                } else if (waiter != null) {
                    waiter.accept(WAIT_NS);
                } else if (idle <= SPINS + YIELDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(PARK_NS);
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            if (t instanceof Error error) {
                throw error;
            }
        }
    }

    /** The failure that stopped the agents, or null. */
    public Throwable failure() {
        return failure.get();
    }

    /** Stops the thread and waits for it (at most 10 s). */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
