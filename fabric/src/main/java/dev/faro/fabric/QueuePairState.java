package dev.faro.fabric;

/** The life cycle of a queue pair, a reduced form of the verbs state machine. */
public enum QueuePairState {
    /** Created, not yet connected (RC only): receives may be posted, sends may not. */
    INIT,
    /** Connected (RC) or created (UD): requests are processed. */
    READY,
    /** A request failed or the peer disappeared: every outstanding and future request completes with {@link CompletionStatus#FLUSHED}. */
    ERROR,
    /** Closed by its owner: posting throws {@link FaroException.Category#CLOSED}. */
    CLOSED
}
