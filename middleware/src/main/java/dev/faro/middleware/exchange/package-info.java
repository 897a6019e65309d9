/**
 * DAIS16's middleware as an exchange transport of the engine ({@code dev.faro.shuffle.transport}), registered as
 * {@value dev.faro.middleware.exchange.Dais16Transport#NAME} ({@link dev.faro.middleware.exchange.Dais16TransportFactory}).
 *
 * <p>What it owns: the node's one middleware for its lifetime ({@link dev.faro.middleware.exchange.NodeMiddleware}:
 * one worker per engine thread, one connection per node pair, one outgoing and one incoming ring per worker pair),
 * shared by every exchange of every query, each exchange an operator id in the shared rings; the mapping of the
 * transport contract onto the middleware's API ({@link dev.faro.middleware.exchange.MiddlewareChannel}): an engine
 * buffer is one record, {@code send} appends it (one copy, as the paper's send copies a row), {@code take} copies the
 * next record of the exchange out of the rings or the demux queue into the thread's buffer, {@code finish} is one
 * end-of-stream record to the same-numbered worker of each receiving node. A buffer for the sender's own node takes
 * the paper's same-process shortcut ({@link dev.faro.middleware.exchange.LocalBuffers}): the buffer itself is handed to
 * the receiving thread, no copy and no ring.
 *
 * <pre>
 *  node A, engine thread t                                     node B, engine thread t
 *  exchange x1 sender ─┐                                       ┌─ exchange x1 receiver (operator 0)
 *  exchange x2 sender ─┼─ lock(worker t) ─ out[t][B.t] ═WRITE═► in[A.t][t] ─ lock(worker t) ─┼─ exchange x2 receiver
 *                      │   one ring per worker pair,           demux per operator            │
 *                      │   records of every exchange mixed                                   │
 * </pre>
 *
 * <p>Deadlock and memory: a thread that waits for ring space writes out its worker's rings whatever the write
 * threshold and returns the space read, but reads nothing (the engine runs an exchange's receivers alongside its
 * senders, as the SPI requires; a sender reading ahead for them would pile rows on the heap). A receiver reading its
 * exchange moves every other exchange's rows it meets into their demux queues, so no ring stays blocked behind an
 * exchange whose receiver has not started; those rows then wait on the heap until it starts: the shared rings bound
 * the memory of the network path, not of the node (the paper's demux caveat). Per-exchange credit, as the TODS19
 * designs have, is what the shared rings give up.
 *
 * <p>Failure: a failed middleware (a peer died) fails every exchange's next call with the first error; a query that
 * ends with streams not ended (it failed) leaves the rings stale, and the next query replaces the middleware on every
 * node (agreed at its first exchange's open), as does a query of another node or thread count than the last one. The
 * nodes of a query may have served different earlier queries (a query on the first half of the cluster's nodes), so the
 * replacement's generation, which names its connection keys, is agreed too: the highest of theirs plus one. One query
 * at a time per node: an exchange of a second query opened while another query's exchanges are open fails at once with
 * an error that says so, and the running query goes on.
 */
package dev.faro.middleware.exchange;
