package dev.faro.fabric;

/**
 * The outcome carried by a {@link WorkCompletion}, after InfiniBand's {@code ibv_wc_status}. Any status other than
 * {@link #SUCCESS} moves an RC queue pair into {@link QueuePairState#ERROR}; its outstanding requests then complete
 * with {@link #FLUSHED}.
 */
public enum CompletionStatus {
    /** The operation was performed. */
    SUCCESS,
    /** A posted receive was too small for the incoming SEND (reported at the receiver). */
    LOCAL_LENGTH_ERROR,
    /** The target refused a one-sided access: wrong key, out of the region's bounds, or a missing access right. Nothing was changed. */
    REMOTE_ACCESS_ERROR,
    /** The target could not accept the request as formed, e.g. the matched receive buffer was too small (reported at the sender). */
    REMOTE_INVALID_REQUEST,
    /** The target queue pair is not in a state to take requests (closed, in error, or connected to someone else). */
    REMOTE_OPERATION_ERROR,
    /** A SEND or WRITE_WITH_IMMEDIATE found no posted receive for longer than the receiver-not-ready timeout. */
    RECEIVER_NOT_READY_RETRY_EXCEEDED,
    /** The peer stopped responding: its process died or its fabric closed. */
    RETRY_EXCEEDED,
    /** The request was not performed because its queue pair entered the error state first. */
    FLUSHED;

    private static final CompletionStatus[] VALUES = values();

    /** Decodes {@link #ordinal()}; used by providers that store statuses in shared memory. */
    public static CompletionStatus fromOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    public boolean isSuccess() {
        return this == SUCCESS;
    }
}
