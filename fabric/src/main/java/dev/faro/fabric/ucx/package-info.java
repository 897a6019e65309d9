/**
 * The {@code ucx} fabric provider: the fabric contract over UCX (through JUCX 1.12.1 and the system's libucx &ge;
 * 1.12), so Faro's RC designs run on InfiniBand or RoCE NICs, and on shared memory or TCP where there is none. RC
 * queue pairs only: UCX has no unreliable datagrams, so asking for a UD queue pair fails at once, naming the six
 * UD-free designs (SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR).
 *
 * <h2>Threads</h2>
 * <pre>
 *  application threads                      progress thread (UcxAgent, one per node)        UCX worker
 *  postSend: validate, copy into a send    issues requests in posting order ─────────────►  put / get / AM send,
 *    slot, publish the post sequence        publishes completions in posting order ◄──────   ep flush (polled)
 *  postReceive: append to the ring          AM handler: CONNECT, SEND, notifications,  ◄───  incoming messages
 *  poll / await completion queues ◄──────── atomics, answers, revocations, heartbeats
 *  register: runs ucp_mem_map on it ──────► (JUCX workers are single-threaded: only this thread calls UCX)
 * </pre>
 *
 * <h2>How each operation maps onto UCX</h2>
 * <pre>
 *  WRITE        implicit ucp_put of all but the last 8 bytes, then one of the last 8 (so they land last); completes
 *               when the endpoint flush that closes its epoch completes (one flush per progress turn covers every
 *               WRITE issued in it; the flush makes the puts remote)
 *  READ         ucp_get; completes when the bytes are local
 *  SEND         active message (header + payload); the target's progress thread places it into the oldest posted
 *               receive (eager: copy; rendezvous: ucp_am_recv_data_nbx straight into the receive buffer, up to
 *               16 at once per queue pair, their receives completing in arrival order: UcxPlacements); one
 *               cumulative ACK per queue pair per progress turn covers every SEND placed in it (errors, receiver not
 *               ready: a REPLY each); the SEND completes on the ACK or REPLY that covers it
 *  WRITE_IMM    the WRITE's puts, an endpoint flush, then a notification message that consumes a receive like a SEND
 *               (RECEIVE_WRITE_WITH_IMMEDIATE, the immediate, the length): the bytes are visible before the receive
 *               completes
 *  FETCH_ADD,   JUCX (up to 1.18) does not expose ucp_atomic_op_nbx: an ATOMIC message, checked (key, right,
 *  COMPARE_SWAP bounds, alignment) and applied by the target's progress thread with VarHandle atomics, never by an
 *               application thread; the old value comes back in the answer
 * </pre>
 * Ordering: UCX orders neither puts against messages nor completes puts remotely, so every put carries the peer's
 * current flush epoch ({@link dev.faro.fabric.ucx.UcxPeer}); a message (SEND, notification, atomic) leaves only once
 * every earlier put is flushed, so nothing overtakes a WRITE posted before it. Puts among themselves keep posting
 * order on one RMA lane (shared memory: the initiator copies synchronously; TCP: one connection; an IB RC lane: one QP).
 *
 * <h2>Connect handshake</h2>
 * <pre>
 *  A.connect(B's address)  ── CONNECT(A's worker address, qpns, A's RNR timeout) ──►  B's progress thread:
 *                                                                                      B's QP connected to A's QP: ok
 *                          ◄── CONNECT_REPLY(ok | refused, B's revoked region ids) ──  in INIT: wait up to the peer
 *  A issues requests only after ok; refused: the first request fails                   timeout for B.connect(A)
 *  REMOTE_OPERATION_ERROR and the queue pair enters ERROR                              another peer, closed: refused
 * </pre>
 * One UCX endpoint per peer node carries every queue pair's traffic ({@code ucp_ep_create} from the worker address in
 * the queue pair address).
 *
 * <h2>Protection</h2>
 * UCX rkeys grant the whole mapped range and cannot be revoked. So: rights, bounds and owner travel in the key
 * ({@link dev.faro.fabric.ucx.UcxRemoteKey}) and the initiator's progress thread checks them before a put or get
 * (REMOTE_ACCESS_ERROR, nothing moves); closing a region revokes its key at every known peer (REVOKE, answered after
 * the peer flushed its endpoint, bounded by the peer timeout) and in every later CONNECT_REPLY; the memory is
 * unmapped only after that. Atomics are checked again by the target. Unlike a NIC, a peer that tampers with key bytes
 * could reach the rest of a region: the checks protect against mistakes, not against a hostile peer.
 *
 * <h2>Receiver not ready</h2>
 * A SEND or notification without a posted receive is held at the target ({@link dev.faro.fabric.ucx.UcxReceiver}),
 * the initiator is told (and counts a receiver-not-ready retry), and it is delivered when a receive is posted; after
 * the initiator's {@code receiverNotReadyTimeout} the initiator gets RECEIVER_NOT_READY_RETRY_EXCEEDED and its queue
 * pair enters ERROR. A WRITE_WITH_IMMEDIATE's bytes are already in place while its notification waits (a NIC would
 * not place them before the retry succeeds); readers that wait for the receive completion, as the Poll-CQ variant
 * does, cannot tell.
 *
 * <h2>Failure</h2>
 * Heartbeats every peer timeout / 4; a peer silent for the peer timeout, one whose endpoint UCX reports failed
 * (endpoints with UCX's peer failure handling: {@code ucx.error-mode=peer}, or {@code auto} for a peer on another
 * host or without shared-memory transports) or one that said GOODBYE fails every queue pair connected to it
 * (outstanding requests RETRY_EXCEEDED, receives FLUSHED). A same-host peer under {@code auto} is detected dead by the
 * heartbeat alone.
 *
 * <h2>Differences from {@code shm} and {@code net}</h2>
 * No UD. Data path allocations: none on the initiator toward same-host peers (gets, messages, flushes and rendezvous
 * fetches go through {@link dev.faro.fabric.ucx.UcpRequests}, puts are implicit); toward peers with failure handling,
 * JUCX's request object per operation (plus one callback per flush); JUCX makes one {@code UcpAmData} per incoming
 * message, and a held message costs one small object. JUCX is used for setup (context, worker, endpoints, registration, rkeys),
 * the worker's progress, incoming messages and implicit puts; every operation that makes a UCX request is issued
 * through the foreign function API without a callback and polled, because JUCX 1.12 keeps the Java object of every
 * request UCX completes at once forever (openucx/ucx#8829, fixed in UCX 1.14, whose JUCX does not load on Debian 12's
 * libucx 1.13), which grew the heap per small SEND and flush until the JVM crashed. Toward peers whose endpoints have
 * UCX's failure handling (other hosts, or {@code ucx.error-mode=peer}, or no shared memory) these operations still go
 * through JUCX and keep that leak: UCX may call JUCX's error handler inside the send, and that handler crashes the JVM
 * when called from a foreign function call ({@link dev.faro.fabric.ucx.UcpRequests} says why). On shared memory,
 * WRITE and READ move without the target process (like {@code shm}) but atomics need its progress thread (like
 * {@code net}).
 *
 * <h2>Where things are</h2>
 * <pre>
 *  UcxFabricProvider, UcxFabric, UcxOptions   the provider, a node, its options
 *  UcxLibrary                                 loading libucx/JUCX once: version check, environment defaults, memlock
 *  UcxAgent                                   the progress thread: loop, AM handler, control messages, peers
 *  UcxPeer                                    a peer node: endpoint, flush epochs, revocations, liveness
 *  UcxRcQueuePair, SendSlot                   initiator side: posting, issuing, completing in order
 *  UcpRequests                                UCX operations that make requests: issued through FFM, polled
 *  UcxReceiver, UcxPlacements                 target side: posted receives, held messages, in-order completions
 *  UcxCompletionQueue, UcxMemoryRegion        completions; UCX-allocated registered memory
 *  UcxQueuePairAddress, UcxRemoteKey          what peers exchange; MessageDescriptor: the message header
 * </pre>
 * What the providers share (the heap completion ring, the fabric and queue pair skeletons, the send queue, the posted
 * receives, the checks) is in {@code dev.faro.fabric.spi}.
 */
package dev.faro.fabric.ucx;
