/**
 * DAIS16 (Gonçalves, Pereira, Jiménez-Peris: an RDMA middleware for asynchronous multi-stage shuffling): the
 * shuffle middleware of a parallel query engine, on the fabric.
 *
 * <p>What it owns: per process, one connection and one registered region per peer process, cut into one outgoing
 * and one incoming ring per worker pair, shared by every shuffle operator of a plan (rows carry an operator id and
 * are sorted into per-operator demux queues on read); the network thread; the batched WRITTEN and READ
 * notifications; the API of {@link dev.faro.middleware.MiddlewareWorker} (send, gather, broadcast, flush,
 * end-of-stream, poll, take). It knows nothing of plans or SQL; {@code dev.faro.middleware.exchange} makes it (and
 * its NIO baseline) an exchange transport of the engine.
 *
 * <pre>
 *  sender worker s (process A)         network thread A        network thread B        receiver worker r (B)
 *  append row to out[s][r] ─┐
 *  pending ≥ writeThreshold │ (or flush)
 *  and no WRITE in flight   ├─ WRITE out[s][r] → in[s][r] at the same offsets ──────────────►  (bytes land)
 *                           │                      WRITE completion:
 *                           │                      free local space, wake s,
 *                           │                      WRITTEN(s,r,pos) (≤ 8 per SEND) ──►  publish written, wake r
 *                           │                      post the deferred WRITE if due              read rows ≤ pos
 *                           │                                                 ◄── READ(s,r,pos) after readNotifyThreshold
 *                           │                      READ: remote space freed,                   consumed (or when r
 *                           │                      post the WRITE that waited                  runs dry or waits);
 *                           │                                                     one SEND per peer carries every
 *                           │                                                     ring of it r read from (≤ 8)
 *  out[s][r] full: s waits (draining its own incoming rings meanwhile)
 * </pre>
 *
 * Deadlock: two workers each blocked on a full ring to the other would wait forever if a blocked worker stopped
 * reading, and a worker reading operator A would stall a ring whose head holds operator B's rows. Neither happens:
 * every read drains the ring into demux queues, and a worker blocked on a full outgoing ring keeps draining its
 * incoming rings and returning their space.
 *
 * <p>Failure: a peer that dies turns the next WRITE or notification into an error completion, and the fabric's own
 * liveness check (its peer timeout) fails the connection's posted receives even when no data moves; the first error
 * fails the middleware, and every worker's next poll that finds no row, take, flush or end-of-stream, and any send
 * that has to wait for ring space, throws it as {@code FaroException(NETWORK)} naming the peer process (rows already
 * read are still returned; a send that finds room only appends: the per-row path checks no shared state).
 */
package dev.faro.middleware;
