package dev.faro.fabric.idle;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A park that sleeps about as long as it asks. Linux lets a sleeping thread's timer fire up to the thread's timer slack
 * late (50 µs by default, {@code prctl(PR_SET_TIMERSLACK)}), so on this host {@code LockSupport.parkNanos(1_000)} slept
 * a median 67 µs and {@code parkNanos(20_000)} 86 µs; with a 1 µs slack, 16 µs and 37 µs (load 10, 2 cores). Threads
 * that idle in short parks while a peer may answer within microseconds (a network thread, a lock agent, a simulated NIC)
 * otherwise pay tens of microseconds per wake-up.
 *
 * <p>The first park of each thread lowers that thread's timer slack to {@link #SLACK_NS} (one system call per thread,
 * remembered in a thread-local); other threads keep theirs. Where there is no {@code prctl} (not Linux) or native access
 * is refused, parks are plain {@link LockSupport#parkNanos(long)}. Allocation-free after a thread's first park.
 */
public final class ShortPark {

    /** The timer slack a parking thread gets, in nanoseconds. */
    public static final long SLACK_NS = 1_000;

    /** {@code PR_SET_TIMERSLACK} and {@code PR_GET_TIMERSLACK} of Linux's {@code <linux/prctl.h>}. */
    private static final int PR_SET_TIMERSLACK = 29;

    private static final int PR_GET_TIMERSLACK = 30;

    /** {@code int prctl(int option, ...)} with one {@code unsigned long} argument, or null. */
    private static final MethodHandle PRCTL = prctl();

    private static final ThreadLocal<Boolean> LOWERED = ThreadLocal.withInitial(ShortPark::lowerCurrentThread);

    private ShortPark() {}

    /** Parks the current thread for about {@code nanos} (or until unparked or interrupted), as {@code parkNanos}. */
    public static void parkNanos(long nanos) {
        LOWERED.get();
        LockSupport.parkNanos(nanos);
    }

    /**
     * Lowers the current thread's timer slack now (what its first {@link #parkNanos} does); true if it is lowered.
     */
    public static boolean lowerTimerSlack() {
        return LOWERED.get();
    }

    /** The current thread's timer slack in nanoseconds, or -1 where it cannot be read. */
    public static long currentTimerSlackNanos() {
        if (PRCTL == null) {
            return -1;
        }
        try {
            return (int) PRCTL.invokeExact(PR_GET_TIMERSLACK, 0L);
        } catch (Throwable e) {
            return -1;
        }
    }

    private static boolean lowerCurrentThread() {
        if (PRCTL == null) {
            return false;
        }
        try {
            return (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, SLACK_NS) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle prctl() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find("prctl")
                    .map(symbol -> linker.downcallHandle(
                            symbol,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                            Linker.Option.firstVariadicArg(1)))
                    .orElse(null);
        } catch (RuntimeException e) {
            return null; // native access refused: plain parks
        }
    }
}
