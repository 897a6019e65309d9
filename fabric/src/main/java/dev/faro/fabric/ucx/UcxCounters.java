package dev.faro.fabric.ucx;

import java.util.concurrent.atomic.LongAdder;

/** The counters of a {@code ucx} node behind {@link dev.faro.fabric.FabricCounters}. Any thread. */
final class UcxCounters {
    /** Receiver-not-ready notices from targets (each a retry in verbs terms). */
    final LongAdder receiverNotReady = new LongAdder();

    final LongAdder peerFailures = new LongAdder();
}
