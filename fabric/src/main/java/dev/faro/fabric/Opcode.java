package dev.faro.fabric;

/**
 * What a work request asks for, and what a {@link WorkCompletion} reports.
 *
 * <p>The first six are posted on a send queue with {@link QueuePair#postSend}; the last two only appear in
 * completions of posted receives.
 */
public enum Opcode {
    /** Two-sided: consumes one posted RECEIVE at the target (RC and UD). */
    SEND,
    /** One-sided: places local bytes into a remote region; the target's CPU does nothing and learns nothing (RC). */
    WRITE,
    /** A WRITE that also consumes one posted RECEIVE at the target and completes there with a 32-bit immediate (RC). */
    WRITE_WITH_IMMEDIATE,
    /** One-sided: copies remote bytes into a local region (RC). */
    READ,
    /** One-sided atomic add on an aligned remote 8-byte word; the old value lands in the local buffer (RC). */
    FETCH_ADD,
    /** One-sided atomic compare-and-swap on an aligned remote 8-byte word; the old value lands locally (RC). */
    COMPARE_SWAP,
    /** Completion of a posted receive that a SEND filled. */
    RECEIVE,
    /** Completion of a posted receive that a WRITE_WITH_IMMEDIATE consumed; the data went to the WRITE's address. */
    RECEIVE_WRITE_WITH_IMMEDIATE;

    private static final Opcode[] VALUES = values();

    /** Decodes {@link #ordinal()}; used by providers that store opcodes in shared memory. */
    public static Opcode fromOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** Whether a request with this opcode may be posted on a UD queue pair. */
    public boolean allowedOnUd() {
        return this == SEND;
    }

    /** Whether this is one of the two 8-byte atomics. */
    public boolean isAtomic() {
        return this == FETCH_ADD || this == COMPARE_SWAP;
    }

    /** Whether the target must have a RECEIVE posted for this request. */
    public boolean consumesReceive() {
        return this == SEND || this == WRITE_WITH_IMMEDIATE;
    }
}
