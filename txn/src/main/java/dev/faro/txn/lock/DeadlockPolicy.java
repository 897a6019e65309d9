package dev.faro.txn.lock;

/**
 * What a lock server does with a request that cannot be granted at once (ETH19 §5.2.2 and the baselines of Table
 * 5.2).
 */
public enum DeadlockPolicy {
    /**
     * DL-BW, the thesis's bounded wait: the request waits in the lock's FIFO queue; a queue head that has waited
     * longer than the timeout is removed and answered with a negative acknowledgment (NACK).
     */
    TIMEOUT,
    /** 2PL-NW: a request that cannot be granted at once is refused at once. */
    NO_WAIT,
    /**
     * 2PL-WD: a request may wait only if its transaction is older (smaller priority) than every holder of the lock and
     * every request queued before it; otherwise it is refused at once ("dies"). The timeout still applies.
     */
    WAIT_DIE
}
