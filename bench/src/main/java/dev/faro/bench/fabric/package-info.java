/**
 * {@code faro bench fabric}: bandwidth and message rate of RC WRITE, RC READ, RC SEND and UD SEND between two
 * worker processes, against single-thread memcpy measured in the same runs, and, at 64 KiB and 1 MiB, against a plain
 * blocking-socket stream between the same two workers ({@link dev.faro.bench.fabric.SocketStreamBaseline}), measured
 * right after each RC point of that size: the baseline of the {@code net} provider.
 *
 * <h2>Roles</h2>
 * <ul>
 *   <li>{@link dev.faro.bench.fabric.FabricBenchmark} (the CLI process) coordinates: it starts a local cluster
 *       ({@code dev.faro.cluster}) of two worker JVMs, node 0 the initiator and node 1 the target, each holding a
 *       {@link dev.faro.bench.fabric.FabricBenchWorker}; it sends every command below as a cluster task
 *       ({@link dev.faro.bench.fabric.FabricBenchHandler}, one round per command, the other node idle), relays keys
 *       and addresses as hex, and aggregates. The workers open the chosen provider themselves and inherit this
 *       process's environment ({@code UCX_*}). The timed loops run inside MEASURE on the initiator and in the
 *       target's receiver thread: nothing timed goes through the coordinator.</li>
 *   <li>The <em>initiator</em> worker posts the requests ({@link dev.faro.bench.fabric.Initiator}) and measures
 *       memcpy ({@link dev.faro.bench.fabric.MemcpyBaseline}) in the same process.</li>
 *   <li>The <em>target</em> worker owns the remote buffers. For WRITE and READ its threads do nothing; for the
 *       SENDs a {@link dev.faro.bench.fabric.Receiver} thread reposts receives and returns credit.</li>
 * </ul>
 *
 * <h2>Protocol per run</h2>
 * <pre>
 *  coordinator                 initiator                              target
 *   OPEN provider ws window ─►  open node, CQ, data + credit regions   (same) ◄─ OPEN
 *                           ◄─  dataKey creditKey udMtu maxMessage     (same) ─►
 *   PEER targetKeys ────────►  import keys                  import keys ◄─ PEER initiatorKeys
 *   for each point (operation-major, sizes ascending):
 *   PREPARE op size ────────►  new RC (+UD) queue pair,    new RC (+UD) queue pair ◄─ PREPARE op size
 *                              credit word := 0
 *                           ◄─  rcAddress udAddress|-      rcAddress udAddress|- ─►
 *   CONNECT targetAddrs ────►  connect RC                  connect RC ◄─ CONNECT initiatorAddrs
 *   (two-sided only) SERVE ──────────────────────────────► post depth receives, WRITE credit, then busy loop
 *   MEASURE runs runNs warmNs ► warm-up; runs × (memcpy, op) alternating order
 *                           ◄─  rnrRetries sample...
 *   (two-sided only) STOP ───────────────────────────────► end loop ─► received creditWrites udDrops
 *   FINISH ─────────────────►  close queue pairs           close queue pairs, drain CQ ◄─ FINISH
 *   (RC at 64 KiB, 1 MiB) SOCKET_SERVE size ─────────────► socket sink on loopback ─► port
 *   SOCKET_MEASURE port size runs runNs warmNs ► stream chunks, sample... SOCKET_STOP ─► stop the sink
 *   CLOSE ──────────────────►  close the node               (same); then the cluster shuts the workers down
 * </pre>
 *
 * OPEN carries fabric options as a fourth word ({@code key=value,...}): the coordinator sends a fresh
 * {@code net.secret} per run, in the task's payload over the cluster's authenticated loopback connection, so two
 * {@code net} nodes can authenticate each other; other providers ignore it. Workers that joined ({@code --listen}) also
 * get {@code net.bind=route:IP}: each binds its node to the address it reaches the coordinator from. Before OPEN the
 * coordinator asks joined workers {@code HOST} (replies {@code hostName pid}) to say where memcpy ran (the initiator)
 * and to run the loopback socket stream only when both share one host.
 *
 * <h2>Waiting for completions</h2>
 * The initiator and the receiver poll their completion queue busily (spin, then yield), except on {@code net}, whose
 * completions come from a progress thread in the same process: there they wait in event mode
 * ({@code CompletionQueue.await}) after spinning, because a polling thread would take the CPU that progress thread
 * needs on a small machine (see {@link dev.faro.bench.fabric.SpinThenYield#awaitsCompletions}).
 *
 * <h2>Flow control of the SENDs</h2>
 * The target posts {@code depth} receives and writes the absolute number of receives it has posted into the
 * initiator's credit word ({@link dev.faro.bench.fabric.CreditDescriptor}) with an RDMA WRITE, again every
 * {@code depth / 4} reposts. The initiator posts SEND number {@code n} only when {@code n <= credit}, so a SEND always
 * finds a receive: RC SENDs never wait for receiver-not-ready retries and UD SENDs are never dropped. Both counts
 * are reported, and should be zero.
 *
 * <h2>What is timed</h2>
 * A run streams for a fixed time with {@code window} requests outstanding, every {@code window / 4}-th signaled,
 * cycling message-sized slots through a working set (64 MiB by default, per buffer) so that copies go to memory;
 * the clock stops when the last completion is polled. memcpy copies the same sizes through two buffers of the same
 * working set. The report gives medians over the runs.
 */
package dev.faro.bench.fabric;
