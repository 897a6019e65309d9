/**
 * The exchange transport SPI: the one seam through which a query engine's exchanges reach a shuffle mechanism. The
 * engine sees only these types; it knows nothing of fabrics, designs or sockets, and a transport knows nothing of
 * plans, schemas or rows (a buffer is bytes of whole rows the engine encoded). The first implementations are the
 * eight TODS19 designs ({@link dev.faro.shuffle.transport.DesignTransport}) and the TCP socket baseline
 * ({@link dev.faro.shuffle.transport.TcpSocketTransport}); a later system (a HyPer-style multiplexer, the DAIS16
 * middleware, the zero-sided switch) becomes one more {@link dev.faro.shuffle.transport.ExchangeTransport}, and
 * {@code faro bench tpch --transports} then compares it with the others on the same queries.
 *
 * <h2>Plugging one in</h2>
 * A module registers a {@link dev.faro.shuffle.transport.TransportFactory} with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.faro.shuffle.transport.TransportFactory}); {@link
 * dev.faro.shuffle.transport.ExchangeTransports} finds every factory on the class path and makes a transport by name
 * for each query at each node, from a {@link dev.faro.shuffle.transport.TransportNode}: the node's fabric, the query's
 * peers, the cluster secret, the stall timeout and progress signal, and the node's objects that outlive queries (a
 * multiplexer or middleware instance every query shares). The worker, {@code faro tpch --transport},
 * {@code faro bench tpch --transports} and the engine's {@code TpchQueryTest} reach a transport only by its name; none
 * of them changes when a transport is added. This module's own are {@link
 * dev.faro.shuffle.transport.BuiltInTransports}.
 *
 * <h2>What a transport provides</h2>
 * <ul>
 *   <li><b>Open, collectively.</b> {@link dev.faro.shuffle.transport.ExchangeTransport#open} is called by every node
 *       for every exchange of a query, in the same order, with the exchange's name, its
 *       {@link dev.faro.shuffle.endpoint.TransmissionGroups} (repartition: one singleton group per node; broadcast:
 *       one group of every node, the sender included; gather: one group of node 0) and the thread count. It returns
 *       when this node can send to and receive from every other node.</li>
 *   <li><b>Buffers to fill, per destination group.</b> Producing thread {@code t} holds at most one open buffer per
 *       group ({@link dev.faro.shuffle.transport.ExchangeSender#payload}); it writes rows in place and calls
 *       {@link dev.faro.shuffle.transport.ExchangeSender#send} when the next row does not fit. A buffer sent to a
 *       group reaches every member exactly once, and a sender's buffers reach a receiver in the order sent.</li>
 *   <li><b>Buffers received.</b> {@link dev.faro.shuffle.transport.ExchangeReceiver#take} hands a consuming thread the
 *       next filled buffer (any sender's) to read in place, and
 *       {@link dev.faro.shuffle.transport.ExchangeReceiver#release} gives it back, after which the transport may reuse
 *       it or return credit to its sender. Nothing is copied between the transport's buffer and the engine's
 *       decoder.</li>
 *   <li><b>End of stream.</b> {@link dev.faro.shuffle.transport.ExchangeSender#finish} ends one producing thread's
 *       stream (every thread's sender is finished, including threads that produced nothing). Once every sender of
 *       every node has finished, each receiving node's {@code take} returns null on every thread, after the last
 *       buffer; never earlier (under loss, duplication or reordering a transport counts what it must).</li>
 *   <li><b>Credits and blocking.</b> A transport bounds its memory: {@code payload} waits while no buffer is free and
 *       {@code send} while the destination has no credit; {@code take} waits while nothing has arrived. Waits spin,
 *       then park, and fail after the transport's stall timeout without progress anywhere in the query (a
 *       {@link dev.faro.shuffle.endpoint.ProgressSignal}); they never hang. Credit comes back only as receivers take
 *       and release buffers (the UD designs grant none otherwise), so a node's receiving side must drain, on other
 *       threads, while its sending side sends: the engine runs an exchange's consuming pipeline alongside the
 *       producing one. So a node's memory for an exchange is
 *       the transport's buffers, whatever the relation's size;
 *       {@link dev.faro.shuffle.transport.ExchangeChannel#buffersHeldHighWater} reports how many the engine held at
 *       once.</li>
 *   <li><b>Yielding instead of blocking.</b> The engine's drivers never wait inside a transport: they use the
 *       non-blocking forms ({@link dev.faro.shuffle.transport.ExchangeSender#tryPayload},
 *       {@link dev.faro.shuffle.transport.ExchangeSender#trySend},
 *       {@link dev.faro.shuffle.transport.ExchangeSender#tryFinish},
 *       {@link dev.faro.shuffle.transport.ExchangeReceiver#poll}), and when one cannot proceed they return the
 *       sender's or receiver's {@code whenReady()} stage from {@code Operator.isBlocked} and give their thread to other
 *       drivers; a node may run more drivers than threads. A transport implements them as one non-blocking try of what
 *       its blocking call waits for, and completes the stage when that try would succeed: with whatever makes its
 *       progress, or, for transports whose progress is polled (the designs, TCP, the multiplexer, the middleware, the
 *       switch), by registering the try with the {@link dev.faro.shuffle.transport.ReadinessPoller}, one thread that
 *       retries every waiting try and completes its stage. The interfaces' defaults wait inside the try (a transport
 *       without them works only with a thread per driver).</li>
 *   <li><b>First error wins.</b> A failure (a peer died, a message was lost, a stall) is recorded once; every later
 *       call on that node's side of the exchange throws the same error (a {@link dev.faro.fabric.FaroException} with
 *       category {@code NETWORK}), so every thread stops with the first cause, not with a consequence.</li>
 *   <li><b>Close.</b> {@link dev.faro.shuffle.transport.ExchangeChannel#close} frees everything, after the streams
 *       ended or the query failed. A transport may keep what it opened for later exchanges instead, as the multiplexer
 *       and the middleware keep their connections, and the designs their endpoint sets
 *       ({@link dev.faro.shuffle.setup.EndpointSets}: reset after a clean end, closed after a failure); what it keeps
 *       lives in the node's {@link dev.faro.shuffle.transport.TransportNode#shared} objects, closed when the node
 *       stops.</li>
 * </ul>
 *
 * <p>Threads: a transport and a channel are shared; a sender or receiver belongs to one thread. The data-path calls
 * ({@code payload}, {@code length}, {@code send}, {@code take}, {@code release}) allocate nothing.
 */
package dev.faro.shuffle.transport;
