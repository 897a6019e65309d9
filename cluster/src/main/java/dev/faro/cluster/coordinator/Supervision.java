package dev.faro.cluster.coordinator;

import dev.faro.cluster.ClusterException.Kind;
import dev.faro.cluster.launch.LaunchedWorker;
import dev.faro.cluster.launch.WorkerLauncher;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass of the coordinator's supervisor over the slots: pings workers, gives up on silent ones and on ones whose
 * cancelled task overran the grace, launches a worker for each empty slot of a local cluster, and notices launched
 * processes that died or did not join in time. Decisions are taken under the coordinator's monitor; sends, kills and
 * launches happen after it is released. Coordination code; supervisor thread only.
 *
 * <h2>Our own pauses</h2>
 * A worker's silence is only evidence while this process was running to hear it: when the monotonic clock jumped
 * between two passes by more than {@link #pauseThresholdNanos} (the coordinator was stopped with SIGSTOP, suspended
 * with its machine, or starved by the scheduler or a long GC), nobody pinged the workers and nobody read their
 * answers, so no worker is blamed: every silence window restarts at the end of the pause, and a worker is given up
 * only when it stays silent for a whole heartbeat timeout of running time after it.
 */
final class Supervision {

    /** Passes run every 100 ms; a gap of half a second is already far outside that. */
    private static final long PAUSE_FLOOR_NANOS = 500_000_000L;

    private final Coordinator coordinator;
    private final ClusterConfig config;
    private final WorkerLauncher launcher;
    private final PrintStream log;
    /** A gap between passes longer than this is a pause of this process, not silence of the workers. */
    private final long pauseThresholdNanos;

    private final long heartbeatTimeoutNanos;
    /** When the last pass ran; 0 before the first. */
    private long lastTickNanos;
    /** Silence is counted from here at the earliest: the end of the last pause of this process. */
    private long silenceCountsFromNanos;

    private boolean paused;
    /**
     * The cluster's progress epoch: one more whenever a worker's PONG showed progress since the last pass; relayed to
     * every worker with its PING, so a worker waiting in an exchange knows that some other node is still moving
     * batches (see {@code ProgressSignal}).
     */
    private long clusterProgress;

    Supervision(Coordinator coordinator, ClusterConfig config, WorkerLauncher launcher, PrintStream log) {
        this.coordinator = coordinator;
        this.config = config;
        this.launcher = launcher;
        this.log = log;
        this.heartbeatTimeoutNanos = config.heartbeatTimeout().toNanos();
        this.pauseThresholdNanos =
                Math.max(PAUSE_FLOOR_NANOS, config.heartbeatInterval().toNanos());
    }

    void tick(long nowNanos) {
        long pausedNanos = noticePause(nowNanos);
        List<Runnable> actions = new ArrayList<>();
        List<Integer> toLaunch = new ArrayList<>();
        synchronized (coordinator) {
            if (coordinator.isClosed()) {
                return;
            }
            Coordinator.Slot[] slots = coordinator.slots();
            for (Coordinator.Slot slot : slots) {
                if (slot.connection != null && slot.connection.progressedSinceLastLook()) {
                    clusterProgress++;
                }
                if (slot.connection != null && pausedNanos > 0) {
                    slot.connection.postponeCancelDeadlines(pausedNanos); // a cancel's grace is running time too
                }
            }
            for (int node = 0; node < slots.length; node++) {
                Coordinator.Slot slot = slots[node];
                if (slot.connection != null) {
                    watch(slot, nowNanos, actions);
                } else if (launcher != null && slot.unavailable == null) {
                    watchLaunch(node, slot, nowNanos, toLaunch, actions);
                }
            }
        }
        actions.forEach(Runnable::run);
        for (int node : toLaunch) {
            launch(node, nowNanos);
        }
    }

    /**
     * Restarts every silence window when this process did not run between two passes; returns how long it did not
     * run (0 when it did).
     */
    private long noticePause(long nowNanos) {
        long gapNanos = lastTickNanos == 0 ? 0 : nowNanos - lastTickNanos;
        lastTickNanos = nowNanos;
        if (gapNanos <= pauseThresholdNanos) {
            return 0;
        }
        silenceCountsFromNanos = nowNanos;
        paused = true;
        if (gapNanos > heartbeatTimeoutNanos / 2) {
            log.println("faro coordinator: this process did not run for " + gapNanos / 1_000_000
                    + " ms (stopped or starved); the workers are not blamed for the silence and get a fresh"
                    + " heartbeat window");
        }
        return gapNanos;
    }

    /**
     * How long {@code connection} has been silent while this process was running: since its last frame, or since the
     * end of this process's last pause when that came later.
     */
    private long silentNanos(WorkerConnection connection, long nowNanos) {
        long lastHeard = connection.lastHeardNanos();
        long from = paused && silenceCountsFromNanos - lastHeard > 0 ? silenceCountsFromNanos : lastHeard;
        return nowNanos - from;
    }

    private void watch(Coordinator.Slot slot, long nowNanos, List<Runnable> actions) {
        WorkerConnection connection = slot.connection;
        if (connection.isLost()) {
            return; // its reader frees the slot
        }
        if (!connection.isStarted()) {
            return; // admitted, WELCOME not sent yet: a PING now would reach the worker before it
        }
        long silentNanos = silentNanos(connection, nowNanos);
        if (silentNanos > heartbeatTimeoutNanos) {
            actions.add(() -> connection.lose(
                    Kind.WORKER_UNRESPONSIVE, "stopped answering heartbeats for " + silentNanos / 1_000_000 + " ms"));
            return;
        }
        String overdue = connection.overdueCancelledTask(nowNanos);
        if (overdue != null) {
            actions.add(() -> connection.lose(
                    Kind.WORKER_UNRESPONSIVE,
                    "did not stop task '" + overdue + "' within "
                            + config.cancelGrace().toMillis() + " ms of its cancel and was stopped"));
            return;
        }
        if (nowNanos - slot.lastPingNanos >= config.heartbeatInterval().toNanos()) {
            slot.lastPingNanos = nowNanos;
            long progress = clusterProgress;
            actions.add(() -> connection.ping(progress));
        }
    }

    private void watchLaunch(
            int node, Coordinator.Slot slot, long nowNanos, List<Integer> toLaunch, List<Runnable> actions) {
        LaunchedWorker launched = slot.launched;
        if (launched == null) {
            toLaunch.add(node);
            slot.launchedAtNanos = nowNanos;
            return;
        }
        if (!launched.isAlive()) {
            List<String> tail = launched.stderrTail();
            slot.unavailable = "the worker for node " + node + " (pid " + launched.pid() + ") "
                    + launched.describeExit() + " before it joined"
                    + (tail.isEmpty() ? "" : "; its last error line: " + tail.getLast());
            slot.launched = null;
        } else if (nowNanos - slot.launchedAtNanos > config.joinTimeout().toNanos()) {
            slot.unavailable = "the worker for node " + node + " (pid " + launched.pid() + ") did not join within "
                    + config.joinTimeout().toMillis() + " ms and was stopped";
            slot.launched = null;
            actions.add(launched::kill);
        }
    }

    private void launch(int node, long nowNanos) {
        LaunchedWorker launched;
        try {
            launched = launcher.launch(node);
        } catch (RuntimeException e) {
            synchronized (coordinator) {
                coordinator.slots()[node].unavailable = e.getMessage();
            }
            return;
        }
        synchronized (coordinator) {
            Coordinator.Slot slot = coordinator.slots()[node];
            if (coordinator.isClosed() || slot.connection != null || slot.launched != null) {
                launched.kill();
                return;
            }
            slot.launched = launched;
            slot.launchedAtNanos = nowNanos;
        }
    }
}
