/**
 * Two-phase commit as ETH19 runs it: only when a transaction holds an X lock on another machine, the agent as
 * coordinator, the participants' votes landing on its {@link dev.faro.txn.commit.VoteWord} by remote FETCH_ADD, and the
 * decision sent with the end-of-transaction message that releases every lock (no presumed abort or commit).
 */
package dev.faro.txn.commit;
