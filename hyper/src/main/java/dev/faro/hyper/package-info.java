/**
 * VLDB16 (Rödiger, Mühlbauer, Kemper, Neumann: high-speed query processing over high-speed networks, §3.2): the
 * communication multiplexer, the node's message pool and the decoupled exchange, as the exchange transport
 * {@value dev.faro.hyper.HyperTransport#NAME}.
 *
 * <p>What it owns:
 * <ul>
 *   <li>{@link dev.faro.hyper.Multiplexer}: one per node and node lifetime, shared by every exchange of every running
 *       query. One network thread owns all of the node's traffic; only multiplexers are connected, by one RC queue
 *       pair per peer node (n(n−1) per cluster); one send queue per destination node; two-sided SEND/RECEIVE of the
 *       used bytes only; credit as an absolute count of re-posted receives, written back with an 8-byte RDMA WRITE;
 *       event-mode waiting (park, woken by workers) by default, busy polling as an option.</li>
 *   <li>{@link dev.faro.hyper.MessagePool}: every message, registered once when the multiplexer starts, reused by
 *       every exchange and query; per worker group free lists (the paper's NUMA-local pools, modelled as groups of
 *       worker threads); reference counted, so a broadcast is one message with a retain count.</li>
 *   <li>{@link dev.faro.hyper.DecoupledExchange}: one message per destination <em>server</em> per producing worker;
 *       the node's own share bypasses the network; per-group receive queues with local-first dequeue and work
 *       stealing; termination by counting one {@code isLast} marker per node and exchange.</li>
 * </ul>
 *
 * <pre>
 *  worker (node A)                 network thread A              network thread B              worker (node B)
 *  fill message for B ─┐
 *  full / finish       ├─ retain, send queue[B] ──► SEND (used bytes) ──────► receive completion:
 *                      │                             completion: release       route by exchange id,
 *  own share (A) ──────┴─ receive queue (A) directly                           deal to group queues ──► take
 *                                                                               release ◄──────────────── release
 *                                                   credit word ◄── WRITE ───── post the receive again
 *  last local worker finished: isLast marker per receiving peer (behind the data on the FIFO send queue)
 * </pre>
 *
 * <p>Network scheduling ({@link dev.faro.hyper.NetworkSchedule}): unscheduled all-to-all by default, round-robin
 * phases as an option (n−1 conflict-free phases, a quota of messages per phase, each phase's end announced to every
 * peer with an 8-byte RDMA WRITE of the next phase number into its phase word, next to the credit words). With two
 * nodes there is one phase, and no synchronisation is done.
 *
 * <p>{@link dev.faro.hyper.ParallelUnits}: §3.1's counts of connections, buffers and broadcast thresholds, classic
 * against hybrid. {@link dev.faro.hyper.PartitionSkew}: §3.1's skew argument, the most loaded unit's expected input
 * when Zipf keys are hash-partitioned into n·t classic units or n servers.
 *
 * <p>Failure and replacement: a dead peer fails every open exchange with one {@code NETWORK} error naming it; when the
 * runtime replaces the peer's worker (a new multiplexer incarnation under the same node index), the next open
 * replaces the stale queue pair (request ids carry a connection epoch, so late completions of the old one are
 * ignored) and connects to the new one.
 *
 * <p>{@code faro bench hyper} (bench module) prints V1 and V2 of the digest. Not yet: the classic exchange as a runnable
 * baseline (n·t units, per-thread connections), the optimizer rule "broadcast while the size ratio is below n − 1",
 * the switch-contention model of the {@code shm} fabric and the network-namespace measurement with {@code tc tbf},
 * and the experiments V4, V7, V8 and V12 of the digest.
 */
package dev.faro.hyper;
