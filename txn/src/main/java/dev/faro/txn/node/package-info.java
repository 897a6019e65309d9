/**
 * The lock manager's processes over the fabric (ETH19 §5.2, Figs. 5.1 and 5.4): {@link dev.faro.txn.node.LockServer}s
 * (one range of the lock table each, polling), {@link dev.faro.txn.node.TransactionAgent}s (one transaction at a time,
 * blocking), a {@link dev.faro.txn.node.Topology} that places both and partitions the lock ids,
 * {@link dev.faro.txn.node.LockManagerNode}, one machine's part with the start-up exchange, and
 * {@link dev.faro.txn.node.ModelCalibration}, the micro-benchmarks on a running lock manager that feed the transaction
 * model. Every agent has one RC queue pair to every server; all messages are WRITE_WITH_IMMEDIATE into the peer's
 * mailbox ({@code dev.faro.txn.mailbox}), the immediate naming the writer.
 *
 * <pre>
 *  agent a                                   server s (owns lockId)            other participant s'
 *    | LOCK_REQUEST(lockId, mode) -> slot a ---->|
 *    |                                           | table.request: GRANTED / DENIED at once, or QUEUED
 *    |<---- GRANTED / DENIED(queued, proc ns) ---| (a queued request: when it reaches the head and is compatible,
 *    |       (one slot: one request outstanding) |  or DENIED (NACK) when its wait passes the lock timeout)
 *    ...   more locks, one at a time; READ / WRITE of the data words (one-sided, no server CPU)
 *    | commit: X lock held on another machine?   |
 *    |   zero the vote word, then                |                                    |
 *    |   VOTE_REQUEST ------------------------->|  FETCH_ADD(+1 yes / +2^32 no) on    |
 *    |   VOTE_REQUEST ------------------------------------------------------------->| the agent's vote word
 *    |   spin on the vote word until yes + no = participants (no software at the agent for a vote)
 *    | committed: WRITE the buffered data words                                     |
 *    | END_OF_TRANSACTION(commit|abort) ------->| release all of a's locks (strict 2PL)|
 *    | END_OF_TRANSACTION --------------------------------------------------------->|
 *    |<---- ACKNOWLEDGED ------------------------|<------------------ ACKNOWLEDGED ----|
 * </pre>
 *
 * A mailbox slot is written again only after its reader answered the previous message (response, vote or
 * acknowledgment), so one slot per writer is enough. Failures: an agent waits at most the response timeout and fails
 * with one line naming the server (for a wait on several, the acknowledgments of an end of transaction or the data
 * writes, the first of them, not necessarily the silent one; a vote's timeout names the vote count instead); a server
 * that sees an error completion towards an agent, or whose one-sided READ probe of a silent lock holder fails,
 * releases that agent's locks, so waiters behind a dead agent are granted. A server whose own thread throws sends every
 * agent a notice (an 8-byte notified put to the agent's notice word, the immediate flagged
 * {@code MessageDescriptor.FAILED_IMMEDIATE_FLAG}), so agents fail at once naming it instead of at their timeout.
 */
package dev.faro.txn.node;
