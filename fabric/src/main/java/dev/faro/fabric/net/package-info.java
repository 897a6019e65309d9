/**
 * The {@code net} fabric provider: the fabric contract between hosts without RDMA NICs. RC queue pairs run over TCP,
 * UD queue pairs over real UDP datagrams, and one progress thread per node ({@link dev.faro.fabric.net.ProgressAgent})
 * plays the NIC: it, not the application's threads, applies peers' WRITEs, serves their READs and atomics, matches
 * their SENDs with posted receives and publishes every completion.
 *
 * <h2>Threads and memory</h2>
 * <pre>
 *  application threads                       progress thread (one per node)               the wire
 *  postSend: validate, copy into a          takes posts in order, frames them ─────────►  TCP connection to the
 *    send slot, publish the post sequence    reads frames, places payloads into  ◄──────   peer node (requests out,
 *  postReceive: append to the receive ring     registered memory, answers        ──────►   responses in), and one
 *  poll / await the completion queues ◄────── publishes completions                        from it (the reverse)
 *                                             sends and receives UDP datagrams  ◄──────►  UDP socket
 * </pre>
 * Registered memory is plain off-heap memory ({@code Arena.ofShared}); nothing is shared between processes, so there
 * are no files to clean up. Requests and receives pin their regions until they complete, so closing a region in use
 * defers freeing it ({@link dev.faro.fabric.net.NetMemoryRegion}).
 *
 * <h2>RC over TCP</h2>
 * Each node dials one TCP connection to every node its RC queue pairs connect to, shared by all of them (frames name
 * the queue pairs, {@link dev.faro.fabric.net.FrameDescriptor}); two nodes thus share two connections, one per
 * direction of requests, which spares a tie-break when both dial at once. Connections authenticate with the shared
 * secret ({@link dev.faro.fabric.net.Handshake}). A request's psn is its post sequence; the target applies requests in
 * psn order and answers, and the initiator completes a request only when the answer arrives, so a WRITE completes
 * after its bytes are in the target's memory (last 8-byte word stored last, with release).
 *
 * <pre>
 *  initiator QP 7 (node A)                 target QP 9 (node B)
 *   WRITE psn 1 ────────────────────────►  check key/bounds/right, place, last word last
 *   SEND  psn 2 ────────────────────────►  take the oldest posted receive, place, RECEIVE completion
 *   READ  psn 3 ────────────────────────►  check, answer with the bytes
 *               ◄──────────────────────── ACK 2 (merged: 1 and 2)
 *               ◄──────────────────────── READ_RESPONSE 3: bytes land locally, then 1, 2, 3 complete in order
 * </pre>
 * The initiator asks for an ACK only on signaled requests and on the last one it has (an ACK covers every earlier
 * request), so an unsignaled stream costs the target no answers. A socket whose buffer filled is written again only
 * once the selector reports it writable, so streams move in large writes, like a blocking writer's.
 *
 * <p>A SEND or WRITE_WITH_IMMEDIATE that finds no receive is refused with "receiver not ready"; the initiator resends
 * it and everything after it (go-back-N, {@link dev.faro.fabric.net.Responder}) with growing delays, and fails it
 * with RECEIVER_NOT_READY_RETRY_EXCEEDED after {@code receiverNotReadyTimeout}.
 *
 * <h2>UD over UDP</h2>
 * One SEND is one datagram of at most 4096 payload bytes with a 40-byte header and a 16-byte HMAC tag
 * ({@link dev.faro.fabric.net.DatagramDescriptor}); the sender completes once the datagram left. A datagram that finds
 * no posted receive is dropped and counted; one whose tag does not verify is dropped and logged (once per source). Real
 * networks lose and reorder datagrams; the seeded {@link dev.faro.fabric.FaultInjection} of {@code shm} applies on top,
 * at the sender.
 *
 * <h2>Failure</h2>
 * <pre>
 *  connection EOF, reset or write error ─┐
 *  nothing read for peerTimeout ─────────┼─► the peer node failed: its connections close, every RC queue pair
 *  (heartbeats every peerTimeout / 4)    │   connected to it enters ERROR: outstanding requests RETRY_EXCEEDED,
 *  connect or handshake not done in time ┘   posted receives FLUSHED, later requests FLUSHED; no reconnect
 * </pre>
 * A peer that closes says GOODBYE first (logged at DEBUG); one that dies or vanishes (a link down in another network
 * namespace, a killed or stopped process) is logged as a failure. What a peer carried out completes successfully even
 * if it closes right after, as on RC hardware, whose ACK leaves with the placement: a closing node writes every answer
 * it owes (with an ACK of the last request each queue pair placed) before a GOODBYE on any connection; a survivor
 * fails a node when the connection carrying its answers (the one it dialed) ends, not when another one does, and
 * before failing a node it takes in the answers already in that connection's socket. Nothing in the progress thread
 * blocks, and every wait of an application thread is bounded by its own timeout, so no thread of a survivor waits
 * forever. Unlike {@code shm}, which asks the operating system whether a peer process lives, {@code net} only hears a
 * peer: a process stopped (SIGSTOP, a debugger) for longer than {@code peerTimeout} counts as failed.
 *
 * <h2>Authentication</h2>
 * Nodes of a cluster share a secret ({@code net.secret}, or {@code FARO_NET_SECRET}, or one generated per JVM). TCP
 * peers prove it by a mutual HMAC-SHA256 challenge–response before any frame is acted on; datagrams carry an HMAC tag.
 * A peer or datagram that cannot prove it is refused with a log line and changes nothing. Frames after the handshake
 * are not encrypted; use a VPN between hosts you do not trust. Nodes learn each other's addresses through the
 * cluster runtime's relayed exchange (module {@code cluster}), not through a service of this provider.
 *
 * <h2>Where things are</h2>
 * <pre>
 *  NetFabricProvider, NetFabric        the provider and a node (options: NetOptions; secret: auth.SharedSecret)
 *  ProgressAgent                       the NIC thread: duty cycle, selector, accept and dial, deadlines
 *  RemoteNodes, RemoteNode             the other nodes, binding queue pairs to them, failing them
 *  Connection, FrameWriter             one TCP connection: inbound parser, outbound writer (FrameDescriptor)
 *  Handshake                           authentication of a connection
 *  Responder, ResponseAdapter          RC target side (requests in), RC initiator side (responses in)
 *  DatagramEndpoint                    UD over the node's UDP socket (DatagramDescriptor)
 *  NetQueuePair, NetRcQueuePair,       queue pairs: SendSlot (the send queue), PostedReceives
 *    NetUdQueuePair
 *  NetCompletionQueue, NetMemoryRegion completions; registered memory (RegionViews: its socket views)
 *  NetQueuePairAddress, NetRemoteKey,  what peers exchange (NodeAddress: where a node listens)
 * </pre>
 * What the providers share (the heap completion ring, the fabric and queue pair skeletons, the send queue, the posted
 * receives, the checks) is in {@code dev.faro.fabric.spi}.
 *
 * <h2>Differences from {@code shm}</h2>
 * On {@code shm} the initiator's thread moves the bytes, so one-sided operations on a stopped process complete; here
 * the target's progress thread must run, so they complete once the process continues (the cross-process suite knows
 * both). Requests posted in ERROR are completed FLUSHED by the progress thread, in order, rather than inside
 * {@code postSend}.
 */
package dev.faro.fabric.net;
