package dev.faro.txn.node;

import dev.faro.txn.lock.LockMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Watches what agents hold, from outside the lock manager: agents report each grant they receive and, before they send
 * their end of transaction, that they release everything. Any grant incompatible with a lock another transaction
 * holds is a violation (tests).
 */
final class GrantObserver {

    private record Holder(long transaction, LockMode mode) {}

    private final Map<Long, List<Holder>> holders = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private long grants;

    synchronized void granted(long transaction, long lockId, LockMode mode) {
        grants++;
        List<Holder> current = holders.computeIfAbsent(lockId, id -> new ArrayList<>());
        for (Holder holder : current) {
            if (holder.transaction() != transaction && !mode.isCompatibleWith(holder.mode())) {
                violations.add("lock " + lockId + ": " + mode + " granted to " + Long.toHexString(transaction)
                        + " while " + Long.toHexString(holder.transaction()) + " holds " + holder.mode());
            }
        }
        current.add(new Holder(transaction, mode));
    }

    synchronized void released(long transaction) {
        holders.values().forEach(list -> list.removeIf(holder -> holder.transaction() == transaction));
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    synchronized long grants() {
        return grants;
    }
}
