package dev.faro.txn.node;

import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import dev.faro.txn.lock.DeadlockPolicy;
import org.junit.jupiter.api.Test;

/**
 * The bank invariant over the {@code ucx} provider (UCX's shared-memory transports): the mailboxes' WRITE_WITH_IMMEDIATE
 * and the vote's FETCH_ADD on real UCX. Needs libucx: skipped with one line without it, failed under
 * {@code FARO_REQUIRE=ucx}.
 */
@Requires(Requirement.UCX)
class UcxBankTransferTest {

    @Test
    void totalIsConservedOverUcx() throws Exception {
        BankTransferTest.runTransfers("ucx", DeadlockPolicy.TIMEOUT, 0, 0);
    }
}
