package dev.faro.txn.workload;

import dev.faro.txn.lock.LockMode;
import java.util.Arrays;

/**
 * The locks one transaction takes, in order, and its type (for per-type counts such as new-order transactions): a
 * reusable buffer a {@link Workload} fills for every transaction.
 *
 * <p>Data path: allocation-free once grown to the largest transaction; one thread.
 */
public final class LockList {

    private long[] lockIds = new long[64];
    private LockMode[] modes = new LockMode[64];
    private int count;
    private int type;

    /** Empties the list and sets the transaction's type. */
    public void clear(int transactionType) {
        count = 0;
        type = transactionType;
    }

    /** Sets the transaction's type, keeping the locks. */
    public void retype(int transactionType) {
        type = transactionType;
    }

    /** Appends one lock. */
    public void add(long lockId, LockMode mode) {
        if (count == lockIds.length) {
            lockIds = Arrays.copyOf(lockIds, count * 2);
            modes = Arrays.copyOf(modes, count * 2);
        }
        lockIds[count] = lockId;
        modes[count] = mode;
        count++;
    }

    /** Whether {@code lockId} is in the list already. */
    public boolean contains(long lockId) {
        for (int i = 0; i < count; i++) {
            if (lockIds[i] == lockId) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return count;
    }

    public long lockId(int index) {
        return lockIds[index];
    }

    public LockMode mode(int index) {
        return modes[index];
    }

    public int type() {
        return type;
    }
}
