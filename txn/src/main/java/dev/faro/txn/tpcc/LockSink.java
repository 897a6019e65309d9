package dev.faro.txn.tpcc;

/** Receives a transaction's locks in the order the transaction takes them. */
@FunctionalInterface
public interface LockSink {

    /** One lock on {@code resourceId} (see {@link TpccLockSets} for the id space). */
    void lock(long resourceId, LockIntent intent);
}
