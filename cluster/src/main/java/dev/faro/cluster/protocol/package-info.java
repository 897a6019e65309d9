/**
 * The cluster's wire protocol: length-prefixed frames over TCP, each a JSON control message (Jackson, never Java
 * serialization) plus an optional binary payload, and the HMAC-SHA256 challenge-response {@link
 * dev.faro.cluster.protocol.Handshake} a worker passes before anything else.
 *
 * <h2>Frame layout (big-endian, network order)</h2>
 * <pre>
 *  0               4               8               12
 *  +---------------+---------------+---------------+------------------+-----------------+
 *  | magic "FRC1"  | headerLength  | payloadLength | header: UTF-8    | payload: bytes  |
 *  |               | (> 0)         | (>= 0)        | JSON object      | (results)       |
 *  +---------------+---------------+---------------+------------------+-----------------+
 *  Before authentication a frame is at most 64 KiB (and the stream buffers are 512 B); after it, at most 2 GiB.
 * </pre>
 *
 * <h2>A session</h2>
 * <pre>
 *  coordinator                                   worker
 *     HELLO / AUTH / WELCOME (or REFUSED)         see Handshake
 *     ◄──────────── READY                          fabric open (or JOIN_FAILED, then exit)
 *     ── TASK {taskId, taskType, payload} ──►      runs on its own thread
 *     ◄──────────── GATHER {taskId, key, value}    PeerExchange.allGather, any number, concurrent keys
 *     ── GATHERED {taskId, key, values[]} ──►      once every node contributed to (taskId, key)
 *     ── CANCEL {taskId, reason} ──►               sets the task's cancel flag, fails its pending gathers
 *     ◄──────────── REPLY {taskId, result} + payload   or FAILED {taskId, category, message}
 *     ── PING {clusterProgress} ──►                every second; answered at once by the reader thread:
 *     ◄──────────── PONG {progress}                the worker's batch count in, the cluster's epoch out
 *                                                  (stall detection); either side gives up on silence
 *     ── SHUTDOWN ──►                              or the connection drops: the worker exits
 * </pre>
 * Binary values inside headers (gather contributions) are base64 strings. Text a peer sent goes into a log line only
 * through {@link dev.faro.cluster.protocol.PeerText#sanitize}.
 */
package dev.faro.cluster.protocol;
