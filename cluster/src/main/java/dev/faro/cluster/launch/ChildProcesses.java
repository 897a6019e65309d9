package dev.faro.cluster.launch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The worker processes this JVM started, and how they end when this JVM ends: one shutdown hook asks every live one
 * to stop (SIGTERM, so it closes its fabric and removes its files), waits up to {@link #STOP_GRACE} for all of them,
 * then kills the rest (SIGKILL), and runs what each registered to run after its exit (removing what a killed worker
 * left behind). Ctrl-C or SIGTERM of a coordinator therefore leaves no orphan, no files and, unless a worker hangs, no
 * worker killed. Also tells whether this JVM is shutting down, so that the deaths a stop causes are not
 * reported as failures. Coordination code; thread-safe.
 */
public final class ChildProcesses {

    /** How long the workers together get to stop after SIGTERM before they are killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /** Live processes, each with what runs once it ended. */
    private static final Map<Process, Runnable> LIVE = new ConcurrentHashMap<>();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAll, "faro-child-process-stopper"));
        } catch (IllegalStateException e) {
            // first used while this JVM already shuts down (a stop asking shuttingDown() in a run that launched no
            // worker): nothing to stop, and launch() starts none from now on
        }
    }

    private ChildProcesses() {}

    /**
     * Tracks {@code process} until it ends; at JVM exit it is stopped gracefully if still alive. {@code afterExit}
     * runs once it ended, however it ended (e.g. removing files a killed process left behind): on a thread of the
     * process API, and at JVM exit on the stopping thread before the JVM halts. It must be idempotent and not throw.
     */
    public static void register(Process process, Runnable afterExit) {
        LIVE.put(process, afterExit);
        process.onExit().thenRun(() -> {
            LIVE.remove(process);
            afterExit.run();
        });
    }

    /**
     * Whether this JVM is shutting down (a signal such as SIGINT or SIGTERM, or {@code System.exit}): shutdown hooks
     * are running or about to.
     */
    public static boolean shuttingDown() {
        Thread probe = new Thread(() -> {}, "faro-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
        } catch (IllegalStateException e) {
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
    }

    /**
     * Asks {@code processes} to stop (SIGTERM), waits until {@code deadlineNanos} ({@link System#nanoTime}) for them,
     * kills (SIGKILL) the ones still alive and waits a little for those too. Never throws.
     */
    public static void stop(List<Process> processes, long deadlineNanos) {
        for (Process process : processes) {
            process.destroy();
        }
        for (Process process : processes) {
            if (!awaitExit(process, deadlineNanos - System.nanoTime())) {
                process.destroyForcibly();
            }
        }
        long killDeadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        for (Process process : processes) {
            awaitExit(process, killDeadline - System.nanoTime());
        }
    }

    private static void stopAll() {
        Map<Process, Runnable> live = Map.copyOf(LIVE);
        stop(List.copyOf(live.keySet()), System.nanoTime() + STOP_GRACE.toNanos());
        for (Runnable afterExit : live.values()) {
            afterExit.run(); // the process API may not get to it before the JVM halts
        }
    }

    private static boolean awaitExit(Process process, long timeoutNanos) {
        try {
            return process.waitFor(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }
}
