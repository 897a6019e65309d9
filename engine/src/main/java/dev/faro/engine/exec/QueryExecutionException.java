package dev.faro.engine.exec;

/** A query failed at this node; the cause is the first failure of any of its threads. */
public final class QueryExecutionException extends RuntimeException {

    public QueryExecutionException(String message, Throwable cause) {
        super(message, cause);
    }
}
