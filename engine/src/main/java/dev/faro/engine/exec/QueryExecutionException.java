package dev.faro.engine.exec;

import dev.faro.fabric.FaroException;

/**
 * A query failed at this node; the cause is the first failure of any of its threads. Its category is the cause's when
 * that is a {@link FaroException} (a peer died: {@code NETWORK}, a wait ran out: {@code TIMEOUT}), otherwise
 * {@code INVALID_ARGUMENT}: the plan or the data made it fail (an overflow, a bad cast), and running it again will not
 * help.
 */
public final class QueryExecutionException extends FaroException {

    public QueryExecutionException(String queryId, int node, Throwable cause) {
        super(
                cause instanceof FaroException faro ? faro.category() : Category.INVALID_ARGUMENT,
                "query " + queryId + " failed at node " + node + ": " + describe(cause),
                cause);
    }

    /** The cause's message; its class name too when that is not a FaroException (it then says what happened). */
    private static String describe(Throwable cause) {
        if (cause instanceof FaroException) {
            return String.valueOf(cause.getMessage());
        }
        String name = cause.getClass().getSimpleName();
        return cause.getMessage() == null ? name : name + ": " + cause.getMessage();
    }
}
