package dev.faro.txn.tpcc;

/** The isolation levels of ETH19's MySQL traces (§5.4.1). */
public enum TpccIsolation {
    /** Reads take shared row locks (locking reads), writes exclusive ones: ≈ 53 locks per transaction. */
    SERIALIZABLE,
    /** Plain reads take no locks (consistent reads); writes and locking reads do: ≈ 28 locks per transaction. */
    READ_COMMITTED
}
