package dev.faro.engine.exec;

import dev.faro.engine.exchange.ShuffleExchange;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens a query's exchanges at one node on a thread of its own, in plan order (opening is collective: every node
 * opens the same exchanges in the same order), while the pipelines that need no unopened exchange already run. An
 * open is mostly waiting (address swaps through the peer exchange, connection set-up), so the first pipelines'
 * compute hides the later exchanges' set-up instead of the query waiting for every open before its first batch.
 *
 * <p>Failure: an open that throws fails the query and opens nothing more; once the query failed, nothing more is
 * opened. The conductor {@link #abandon}s the opener when the query ends and closes what it returns; an open that
 * completes after that is closed by the opener itself, so nothing is left open whatever the timing. Coordination
 * code; the conductor and the opener thread share it.
 */
final class ExchangeOpener {

    private final List<ShuffleExchange> exchanges;
    private final QueryFailure failure;
    private final Runnable onOpened;
    /** The exchanges opened and handed to the conductor; guarded by {@code this}. */
    private final List<ShuffleExchange> opened = new ArrayList<>();
    /** Set by {@link #abandon}; guarded by {@code this}. */
    private boolean abandoned;

    /**
     * @param exchanges the query's exchanges, in plan order
     * @param onOpened called after each exchange opened, and once when opening failed (a wake-up for the scheduler)
     */
    ExchangeOpener(List<ShuffleExchange> exchanges, QueryFailure failure, Runnable onOpened) {
        this.exchanges = List.copyOf(exchanges);
        this.failure = failure;
        this.onOpened = onOpened;
    }

    /** Starts opening (nothing to do without exchanges); returns at once. */
    void start(String queryId) {
        if (!exchanges.isEmpty()) {
            Thread.ofPlatform().daemon().name("exchange-opener-" + queryId).start(this::openAll);
        }
    }

    private void openAll() {
        for (ShuffleExchange exchange : exchanges) {
            if (failure.failed()) {
                return;
            }
            try {
                exchange.open();
            } catch (Throwable e) {
                failure.fail(e);
                onOpened.run();
                return;
            }
            boolean keep;
            synchronized (this) {
                keep = !abandoned;
                if (keep) {
                    opened.add(exchange);
                }
            }
            if (!keep) { // the query ended meanwhile (it failed): nobody else will close this one
                try {
                    exchange.close();
                } catch (Throwable ignored) {
                    // the query has already failed with its first error
                }
                return;
            }
            onOpened.run();
        }
    }

    /**
     * Stops handing exchanges to the conductor and returns those it has: the conductor closes them; any later open is
     * closed by the opener.
     */
    synchronized List<ShuffleExchange> abandon() {
        abandoned = true;
        return List.copyOf(opened);
    }
}
