package dev.faro.cluster.coordinator;

import dev.faro.cluster.protocol.PeerText;
import dev.faro.fabric.auth.RefusalLog;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Log lines about things outside the cluster's control (connections that fail to authenticate, junk on the port):
 * at most one line per kind per period, the next one saying how many of that kind were left out; the peer's text is
 * {@linkplain PeerText#sanitize sanitised}. A flood of bad connections then costs the operator one line per period
 * and can never write its own text, newlines or escape sequences into the terminal. The limit per kind is
 * {@link RefusalLog}'s, the one rate limit every listener shares. Coordination code; thread-safe.
 */
final class RateLimitedLog {

    /** How often one kind of line may appear by default. */
    static final Duration DEFAULT_PERIOD = RefusalLog.DEFAULT_INTERVAL;

    private final PrintStream log;
    private final Duration period;
    private final LongSupplier clock;
    private final Map<String, RefusalLog> kinds = new ConcurrentHashMap<>();

    RateLimitedLog(PrintStream log) {
        this(log, DEFAULT_PERIOD, System::nanoTime);
    }

    RateLimitedLog(PrintStream log, Duration period, LongSupplier clock) {
        this.log = log;
        this.period = period;
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
        return kinds.computeIfAbsent(kind, k -> new RefusalLog(period, clock, log::println))
                .refused("faro coordinator: " + line + (peerText == null ? "" : PeerText.sanitize(peerText)));
    }
}
