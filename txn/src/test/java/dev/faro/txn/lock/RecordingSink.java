package dev.faro.txn.lock;

import java.util.ArrayList;
import java.util.List;

/** A {@link GrantSink} that records every outcome, for the lock table's tests. */
final class RecordingSink implements GrantSink {

    /** One outcome. */
    record Outcome(boolean granted, int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {}

    final List<Outcome> outcomes = new ArrayList<>();

    @Override
    public void onGranted(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
        outcomes.add(new Outcome(true, agent, transactionId, lockId, mode, queuedNs));
    }

    @Override
    public void onDenied(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
        outcomes.add(new Outcome(false, agent, transactionId, lockId, mode, queuedNs));
    }

    /** The outcomes so far, then forgets them. */
    List<Outcome> take() {
        List<Outcome> taken = List.copyOf(outcomes);
        outcomes.clear();
        return taken;
    }
}
