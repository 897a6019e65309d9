package dev.faro.cluster.coordinator;

import dev.faro.cluster.protocol.PeerText;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Log lines about things outside the cluster's control (connections that fail to authenticate, junk on the port):
 * at most one line per kind per period, the next one saying how many of that kind were left out; the peer's text is
 * {@linkplain PeerText#sanitize sanitised}. A flood of bad connections then costs the operator one line per period
 * and can never write its own text, newlines or escape sequences into the terminal. Coordination code; thread-safe.
 */
final class RateLimitedLog {

    /** How often one kind of line may appear by default. */
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(10);

    private static final class Kind {
        long lastPrintedNanos;
        boolean printedOnce;
        long suppressed;
    }

    private final PrintStream log;
    private final long periodNanos;
    private final LongSupplier clock;
    private final Map<String, Kind> kinds = new HashMap<>();

    RateLimitedLog(PrintStream log) {
        this(log, DEFAULT_PERIOD, System::nanoTime);
    }

    RateLimitedLog(PrintStream log, Duration period, LongSupplier clock) {
        this.log = log;
        this.periodNanos = period.toNanos();
        this.clock = clock;
    }

    /**
     * Prints {@code "faro coordinator: " + line + sanitised peer text} unless a line of {@code kind} was printed less
     * than a period ago (then it is only counted).
     *
     * @param kind what kind of event, e.g. "refused"; a fixed string, never peer text
     * @param line our own words
     * @param peerText what the peer sent or caused (an exception message quoting its bytes); sanitised here
     * @return whether the line was printed
     */
    boolean log(String kind, String line, String peerText) {
        long suppressed;
        synchronized (kinds) {
            Kind state = kinds.computeIfAbsent(kind, k -> new Kind());
            long now = clock.getAsLong();
            if (state.printedOnce && now - state.lastPrintedNanos < periodNanos) {
                state.suppressed++;
                return false;
            }
            suppressed = state.suppressed;
            state.suppressed = 0;
            state.printedOnce = true;
            state.lastPrintedNanos = now;
        }
        log.println("faro coordinator: " + line + (peerText == null ? "" : PeerText.sanitize(peerText))
                + (suppressed == 0 ? "" : " (" + suppressed + " more like it since the last such line, not shown)"));
        return true;
    }
}
