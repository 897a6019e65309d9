/**
 * A small MPI-3-RMA-like layer over the Faro fabric, for the ETH19 joins and any other one-sided algorithm (the joins
 * use puts, flushes and collectives; notified puts have no user yet: the lock manager in {@code txn} does not depend
 * on this module and writes its own mailboxes): {@link dev.faro.join.rma.RmaGroup} (ranks connected by RC queue
 * pairs, one lane per thread), {@link dev.faro.join.rma.RmaWindow} (registered memory at every rank, created
 * collectively), {@link dev.faro.join.rma.RmaLane} (put with per-request completion, flush, notified put) and
 * {@link dev.faro.join.rma.Collectives} (allreduce, scan, reduce-scatter, all-to-all, barrier, broadcast).
 *
 * <p>MPI terms to Faro terms: {@code MPI_Win_create} is {@code RmaGroup.createWindow}; {@code MPI_Put} /
 * {@code MPI_Rput} is {@code RmaLane.put} with a request slot, {@code MPI_Wait} on it {@code RmaLane.await},
 * {@code MPI_Win_flush_all} {@code RmaLane.flush}; foMPI-NA's {@code MPI_Put_notify} is {@code RmaLane.putNotify}
 * (a WRITE_WITH_IMMEDIATE), its {@code MPI_Test} / {@code MPI_Wait} {@code pollNotification} /
 * {@code awaitNotification}. The passive-target lock-all epoch needs no counterpart: windows are always open, and a
 * barrier after the flushes plays {@code MPI_Win_unlock_all} + {@code MPI_Barrier}.
 *
 * <p>Collective protocol (every collective is one or more all-gather rounds; see {@code CollectiveDescriptor}):
 *
 * <pre>
 *  rank a                                   rank b
 *  stage payload | n | round                stage payload | n | round
 *  WRITE slot[a] at b  ------------------>  (lands; round word last)
 *  (lands)            <------------------   WRITE slot[b] at a
 *  poll CQ: own WRITEs complete             poll CQ: own WRITEs complete
 *  spin: every slot's round == this round   spin: every slot's round == this round
 *  (a silent peer is probed with an 8-byte READ every 200 ms: a dead one fails the READ after the peer timeout)
 * </pre>
 */
package dev.faro.join.rma;
