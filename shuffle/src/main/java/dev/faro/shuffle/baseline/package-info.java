/**
 * Baseline endpoints that the RDMA designs are measured against, behind the same
 * {@link dev.faro.shuffle.endpoint.SendEndpoint} / {@link dev.faro.shuffle.endpoint.ReceiveEndpoint} API so that the
 * SHUFFLE and RECEIVE data movement runs unchanged over them.
 *
 * <h2>TCP sockets (TODS19 §7.1, "IPoIB")</h2>
 * What a query engine gets from a faster network without changing its software: plain TCP over loopback here.
 * Send endpoint {@code i} of every node holds one blocking connection to receive endpoint {@code i} of every node;
 * {@code send()} on one side, a {@code select()} / {@code recv()} loop on the other, 128 KB messages (the paper's
 * best setting). A connection carries data only after its handshake ({@link dev.faro.shuffle.baseline.TcpHandshake}):
 * the sender proves the cluster secret over the receiver's fresh challenge, bound to the exchange (its name and a
 * random token each receive endpoint publishes with its port), and checks the receiver's proof in turn. A receiver
 * refuses, with one rate-limited log line, a peer that cannot prove the secret, names another or an earlier
 * exchange, duplicates a node's connection or stays silent past the handshake deadline; it stops listening once
 * every sender is in, so a later connection is refused by the operating system. After the handshake a message is one
 * frame, the shuffle buffer's own header followed by its payload:
 * <pre>
 *  0               4       5       6               8               12              16
 *  +---------------+-------+-------+---------------+---------------+---------------+
 *  |     magic     | state | kind  |   version     | source endpoint| payload length|   MessageHeaderDescriptor
 *  +---------------+-------+-------+---------------+---------------+---------------+
 *  |                  sequence (0)                 |        message count (0)      |  16..31
 *  +-----------------------------------------------+-------------------------------+
 *  payload: payload length bytes (whole tuples)
 * </pre>
 * <ul>
 *   <li>writer: the sending thread, under the connection's lock (a shared endpoint's threads never interleave
 *       frames); reader: the RECEIVE thread that holds the receive endpoint's lock and runs its loop;</li>
 *   <li>order: TCP keeps each connection in order; a sender's DEPLETED frame is its last on that connection, and
 *       the stream ends at a receiver once every connection delivered one;</li>
 *   <li>flow control: TCP's window; a receiver without a free buffer stops reading that connection;</li>
 *   <li>errors: a bad magic, an oversized length, or a connection that closes before its DEPLETED fails the stream
 *       with a {@code NETWORK} error, as do waits past the stall timeout.</li>
 * </ul>
 */
package dev.faro.shuffle.baseline;
