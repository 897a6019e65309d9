/**
 * The multi-process shuffle harness: real worker JVMs, one {@code shm} fabric node each, run shuffles of the
 * {@code shuffle} module on a coordinator's command. It serves the correctness matrix and the kill tests
 * ({@code ShuffleMatrixIT}, {@code ShuffleKillIT}) and {@code faro bench shuffle throughput}
 * ({@link dev.faro.bench.shuffle.ShuffleThroughput}). Coordination code throughout, except the per-tuple loops of
 * {@link dev.faro.bench.shuffle.NodeShuffle}.
 *
 * <h2>Roles</h2>
 * <ul>
 *   <li>{@link dev.faro.bench.shuffle.ShuffleCluster} (coordinator) starts N {@link
 *       dev.faro.bench.shuffle.ShuffleWorker} JVMs through {@link dev.faro.bench.process.WorkerProcess} and keeps
 *       them across cases; a case over k nodes uses the first k. It computes what every receiver must get
 *       ({@link dev.faro.bench.shuffle.ShuffleTuples#expected}), and per case runs one driver thread per node
 *       ({@link dev.faro.bench.shuffle.RunningCase}).</li>
 *   <li>Each worker opens one fabric node for its lifetime; per case a {@link
 *       dev.faro.bench.shuffle.NodeShuffle} opens the endpoints, runs the SHUFFLE and RECEIVE threads, closes the
 *       endpoints and reports.</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * The {@link dev.faro.bench.process.WorkerChannel} line protocol is strictly request/reply, so the worker's events
 * (an exchange to relay, the start of the data, the end) are pulled by the coordinator with a long poll,
 * {@code NEXT}, which answers as soon as an event is queued or after 200 ms with {@code RUNNING}. The allGather of
 * {@link dev.faro.shuffle.setup.PeerExchange} becomes a {@code GATHER} event and a {@code GATHERED} command
 * ({@link dev.faro.bench.shuffle.RelayedPeerExchange}). Binary values are hex ({@code -} when empty).
 * <pre>
 *  coordinator (driver of node i)                  worker i
 *   OPEN shmDirectory secret ────────────────────►  open the fabric node (once per worker); keep the secret
 *                      ◄──────────────────────────  nodeIdHex pid
 *   IDLE waitMillis ─────────────────────────────►  wait until the previous case closed its endpoints
 *   CASE caseId i design=.. groups=0;1;2 .. ─────►  start the case: fill tables, EndpointFactory.open(...)
 *   NEXT 200 ────────────────────────────────────►
 *                      ◄──────────────────────────  GATHER case-7/rc-two-sided/addresses 0a1b..   (allGather waits)
 *   (once every node of the case contributed)
 *   GATHERED case-7/rc-two-sided/addresses hex0 hex1 hex2 ►  allGather returns
 *   NEXT 200 ... GATHER case-7/rc-two-sided/connected - ... GATHERED ... -  - -
 *   NEXT 200           ◄──────────────────────────  STARTED          (endpoints open everywhere: clock starts)
 *   NEXT 200           ◄──────────────────────────  RUNNING          (nothing within 200 ms)
 *   NEXT 200           ◄──────────────────────────  DONE count=.. checksum=.. outOfOrder=.. bytes=..
 *                                                        elapsedNanos=.. leftoverFiles=..
 *                                          or       FAILED NETWORK receive endpoint 131072 (MEMQ/SR): ...
 *   (another node failed while this one waits in an exchange)
 *   ABANDON reason ──────────────────────────────►  the pending and later exchanges fail with NETWORK
 *   end of stdin ────────────────────────────────►  close the fabric node (its files go) and exit
 * </pre>
 *
 * <h2>Failure</h2>
 * A worker reports the first failure of any of its threads at once (category and message on one line), then lets
 * its other threads end (their waits end at the stall timeout at the latest) and closes the endpoints; the next
 * {@code IDLE} waits for that. The coordinator gives every case a deadline; a worker that died, does not answer,
 * misses the deadline or whose threads did not stop is replaced (a new JVM, a new fabric node) before the next
 * case. A killed worker's files are removed by the survivors' fabric nodes, so after {@link
 * dev.faro.bench.shuffle.ShuffleCluster#close()} the shared directory must be empty.
 *
 * <h2>What is measured</h2>
 * Each sending thread owns a table of 16-byte tuples (R(a, b) of TODS19 §7.1) filled before the endpoints open, and
 * scans it {@code scans} times into the SHUFFLE operator's data movement ({@link
 * dev.faro.shuffle.operator.ShuffleSink}). A node's time runs from the end of the open (the last exchange releases
 * every node together) until its last RECEIVE thread saw the end of the stream; setup and teardown are excluded.
 * Receive throughput per node is bytes received per node divided by the longest node's time. A case's
 * {@link dev.faro.bench.shuffle.CaseTuning} can swap the design's endpoints for the TCP socket baseline
 * ({@link dev.faro.shuffle.baseline.TcpShuffleOpener}, opened through the same relayed exchange and authenticated
 * with a secret the coordinator draws per cluster and sends in OPEN, over the workers' private standard input, never
 * on a command line), and sets the credit frequency, the WRITE completion mode, the buffer policy and the RECEIVE
 * threads' extra work per vector; each node also reports its setup time (open plus close of its endpoints).
 */
package dev.faro.bench.shuffle;
