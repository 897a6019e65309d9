package dev.faro.txn.tpcc;

/**
 * How a TPC-C transaction touches a resource: the four lock modes a multi-granularity lock manager needs for it, named
 * here so that this package stays free of any lock manager's types.
 */
public enum LockIntent {
    /** Reads below this granule. */
    INTENTION_SHARED,
    /** Writes below this granule. */
    INTENTION_EXCLUSIVE,
    /** Reads this row. */
    SHARED,
    /** Writes (or inserts) this row. */
    EXCLUSIVE
}
