package dev.faro.txn.lock;

/**
 * Where a {@link LockTable} reports the outcome of a request that waited: granted when it reached the head of its
 * lock's queue and became compatible, or refused when it timed out. Called on the table's thread, inside
 * {@link LockTable#release} and {@link LockTable#expire}; it must not call back into the table.
 */
public interface GrantSink {

    /**
     * A queued request was granted.
     *
     * @param queuedNs how long it waited in the queue
     */
    void onGranted(int agent, long transactionId, long lockId, LockMode mode, long queuedNs);

    /** A queued request was removed unanswered after waiting {@code queuedNs}: the requester gets a NACK. */
    void onDenied(int agent, long transactionId, long lockId, LockMode mode, long queuedNs);
}
