package dev.faro.engine.exec;

import dev.faro.fabric.FaroException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The nodes' agreement on a distributed query's outcome where no coordinator reports the first failure (a
 * {@link dev.faro.fabric.bootstrap.PeerExchange} that does not end the peers on failure, e.g. the in-JVM one): every
 * node contributes whether it failed, when its first failure was recorded and what it was, in one all-gather; every
 * node then reports the earliest failure of any node, the root cause (the others' are its consequences: a stall, a
 * closed connection), so that every node's error carries the first error, not "node N failed" or its own stall. A
 * node whose own failure came later keeps it as a suppressed exception. Coordination code.
 */
final class QueryOutcome {

    /** Failed, category, when: see {@link #encode}. */
    private static final int HEADER = 2 + Long.BYTES;

    private QueryOutcome() {}

    /**
     * Exchanges the outcome with every node and returns what this node reports: null when no node failed, its own
     * first failure when that was the earliest, else the earliest node's ("the query failed first at node N: ...",
     * with that failure's category when it was a {@link FaroException}).
     */
    static Throwable agree(ExecutionContext context, QueryFailure failure) {
        byte[][] outcomes;
        try {
            outcomes = context.transport().peers().allGather(context.queryId() + "/outcome", encode(failure));
        } catch (RuntimeException e) {
            failure.fail(e);
            return failure.first();
        }
        Throwable own = failure.first();
        int earliest = -1;
        long earliestAt = Long.MAX_VALUE;
        for (int node = 0; node < outcomes.length; node++) {
            byte[] outcome = outcomes[node];
            if (outcome.length >= HEADER && outcome[0] != 0) {
                long at = ByteBuffer.wrap(outcome, 2, Long.BYTES).getLong();
                if (at < earliestAt) {
                    earliestAt = at;
                    earliest = node;
                }
            }
        }
        if (earliest < 0 || earliest == context.nodeIndex()) {
            return own;
        }
        byte[] outcome = outcomes[earliest];
        String message = "the query failed first at node " + earliest + ": "
                + new String(outcome, HEADER, outcome.length - HEADER, StandardCharsets.UTF_8);
        int category = outcome[1];
        RuntimeException first = category == 0
                ? new IllegalStateException(message)
                : new FaroException(FaroException.Category.values()[category - 1], message);
        if (own != null) {
            first.addSuppressed(own);
        }
        return first;
    }

    /**
     * Failed (1 byte), the category (1 byte: 0 when not a {@link FaroException}, else its ordinal + 1), when (8 bytes,
     * epoch nanoseconds), then the failure's description in UTF-8.
     */
    private static byte[] encode(QueryFailure failure) {
        Throwable own = failure.first();
        if (own == null) {
            return new byte[] {0};
        }
        byte[] text = describe(own).getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(HEADER + text.length)
                .put((byte) 1)
                .put((byte) (own instanceof FaroException faro ? faro.category().ordinal() + 1 : 0))
                .putLong(failure.firstAtNanos())
                .put(text)
                .array();
    }

    /** The failure's message, with its class name when that says what happened (as the query's error reads). */
    private static String describe(Throwable failure) {
        if (failure instanceof FaroException) {
            return String.valueOf(failure.getMessage());
        }
        String name = failure.getClass().getSimpleName();
        return failure.getMessage() == null ? name : name + ": " + failure.getMessage();
    }
}
