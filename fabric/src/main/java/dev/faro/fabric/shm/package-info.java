/**
 * The {@code shm} fabric provider: nodes are processes on one host (or several nodes in one JVM) that share memory
 * through files in a common directory, {@code /dev/shm} by default.
 *
 * <h2>Layout</h2>
 * <pre>
 * &lt;shm.directory&gt;/faro-&lt;node id, 16 hex&gt;/
 *     node        NodeDescriptor: owner pid and start time, closed flag
 *     mr-&lt;id&gt;     RegionDescriptor: header page (key, rights, length, registered) + the registered bytes
 *     qp-&lt;qpn&gt;    QueuePairDescriptor: state, peer, the receive ring
 *     cq-&lt;id&gt;     CompletionQueueDescriptor: a many-producer one-consumer ring of completions
 * </pre>
 * Directories are created {@code 0700} and files {@code 0600}: only the user running the cluster reads them (see
 * {@link dev.faro.fabric.shm.ShmDirectory}). Peers map these files on first use, each file in its own arena, and
 * unmap it once its owner retires it (region deregistered, queue pair or completion queue closed; the owner writes
 * that into the file before deleting it): the progress agent looks every 100 ms, so a long-running node's mappings
 * stay as many as the files alive, however many queries come and go. A thread that touches a file unmapped under it
 * gets an {@link java.lang.IllegalStateException} from FFM (never a crash), which the queue pairs turn into the error
 * completion the retired file would have given anyway; see {@link dev.faro.fabric.shm.PeerNode}.
 *
 * <h2>Who moves the data</h2>
 * The initiator, on the posting thread, inside {@code postSend}: it checks the target region's header (key, bounds,
 * rights), copies the bytes (a WRITE's last 8-byte word last, with release), consumes the target's posted receive
 * for SEND and WRITE_WITH_IMMEDIATE with a CAS on the receive ring, and publishes completions into the target's and
 * its own completion queues. The target's threads do nothing for READ, WRITE and atomics, exactly as with a NIC.
 *
 * <pre>
 *  initiator thread (node A)                       node B's memory                     node B's threads
 *  postSend(SEND) ──claim receive (CAS head)────►  qp-7 receive ring
 *                 ──copy payload───────────────►  mr-3 data
 *                 ──publish completion─────────►  cq-1 (release)  ◄──── poll (acquire) ─ application
 *                 ──publish own completion──►  A's cq-0
 * </pre>
 *
 * <h2>Switch contention (an option)</h2>
 * Loopback has no switch. With {@code shm.port-bandwidth} set, {@link dev.faro.fabric.shm.PortContention} models one:
 * each node's link and output port carry that many bytes per second, senders to one node share its port, and a
 * sender waiting for a busy port is blocked (head-of-line) beyond a small input buffer ({@code shm.input-buffer}).
 * A SEND or WRITE waits in its queue pair until the model lets it through, then the data moves. Off by default.
 *
 * <h2>Waiting and failure</h2>
 * A SEND that finds no receive is deferred and retried (by later posts and the node's {@link
 * dev.faro.fabric.shm.ProgressAgent}) until {@code receiverNotReadyTimeout}, then fails with
 * RECEIVER_NOT_READY_RETRY_EXCEEDED. The progress agent checks connected peers every 100 ms: a peer whose fabric
 * closed or whose process died moves every RC queue pair connected to it to ERROR, which completes its deferred
 * requests (RETRY_EXCEEDED) and posted receives (FLUSHED). The survivor also deletes a dead peer's directory; a
 * new node sweeps directories of dead processes when it opens. Event-mode waits poll with a back-off of at most
 * 50 µs, since processes share no wake-up primitive.
 */
package dev.faro.fabric.shm;
