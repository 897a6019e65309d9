package dev.faro.fabric.auth;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The log of peers a listener refused (unauthenticated, unknown, late): one line at most per interval, the next line
 * saying how many refusals it held back, so that a peer hammering a port cannot flood the operator's terminal. The
 * lines are the caller's own words and addresses the operating system reported; they must never carry a peer's bytes.
 *
 * <p>Thread-safe. Coordination code.
 */
public final class RefusalLog {

    /** At most one line per this interval by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

    private final Duration interval;
    private final LongSupplier nanoClock;
    private final Consumer<String> sink;

    // Guarded by this.
    private long refusals;
    private long suppressed;
    private long lastLineNanos;
    private boolean logged;

    /**
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime}, or a manual one in tests)
     * @param sink where a line goes
     */
    public RefusalLog(Duration interval, LongSupplier nanoClock, Consumer<String> sink) {
        this.interval = Objects.requireNonNull(interval, "interval is null");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock is null");
        this.sink = Objects.requireNonNull(sink, "sink is null");
    }

    /**
     * A log that writes each line, after {@code prefix}, as one line to standard error (which a worker's launcher
     * forwards to the operator's terminal), one per default interval.
     */
    public static RefusalLog toStandardError(String prefix) {
        return new RefusalLog(DEFAULT_INTERVAL, System::nanoTime, line -> System.err.println(prefix + line));
    }

    /**
     * Counts a refusal and logs {@code line} unless a line went out less than an interval ago.
     *
     * @return whether the line was logged
     */
    public boolean refused(String line) {
        String out;
        synchronized (this) {
            refusals++;
            long now = nanoClock.getAsLong();
            if (logged && now - lastLineNanos < interval.toNanos()) {
                suppressed++;
                return false;
            }
            out = suppressed == 0
                    ? line
                    : line + " (" + suppressed + " more like it since the last such line, not shown)";
            suppressed = 0;
            lastLineNanos = now;
            logged = true;
        }
        sink.accept(out);
        return true;
    }

    /** Every refusal counted so far, logged or not. */
    public synchronized long refusals() {
        return refusals;
    }
}
