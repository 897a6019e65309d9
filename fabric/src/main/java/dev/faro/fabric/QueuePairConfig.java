package dev.faro.fabric;

import java.util.Objects;

/**
 * How to build a queue pair: its completion queues and its bounded depths.
 *
 * @param sendCompletionQueue receives the completions of posted sends, writes, reads and atomics
 * @param receiveCompletionQueue receives the completions of posted receives (may be the same queue)
 * @param sendQueueDepth requests that may be outstanding on the send queue; one more is a {@code QUEUE_FULL} error
 * @param receiveQueueDepth receives that may be posted and not yet consumed; one more is a {@code QUEUE_FULL} error
 * @param maxInlineBytes the largest inline payload this queue pair accepts
 */
public record QueuePairConfig(
        CompletionQueue sendCompletionQueue,
        CompletionQueue receiveCompletionQueue,
        int sendQueueDepth,
        int receiveQueueDepth,
        int maxInlineBytes) {

    /** The default inline limit, as on common NICs. */
    public static final int DEFAULT_MAX_INLINE_BYTES = 128;

    public QueuePairConfig {
        Objects.requireNonNull(sendCompletionQueue, "sendCompletionQueue is null");
        Objects.requireNonNull(receiveCompletionQueue, "receiveCompletionQueue is null");
        FaroException.checkArgument(sendQueueDepth > 0, "sendQueueDepth must be positive: %d", sendQueueDepth);
        FaroException.checkArgument(receiveQueueDepth > 0, "receiveQueueDepth must be positive: %d", receiveQueueDepth);
        FaroException.checkArgument(maxInlineBytes >= 0, "maxInlineBytes must not be negative: %d", maxInlineBytes);
    }

    /** One completion queue for both directions, the given depths and the default inline limit. */
    public static QueuePairConfig of(CompletionQueue completionQueue, int sendQueueDepth, int receiveQueueDepth) {
        return new QueuePairConfig(
                completionQueue, completionQueue, sendQueueDepth, receiveQueueDepth, DEFAULT_MAX_INLINE_BYTES);
    }
}
