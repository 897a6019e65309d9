/**
 * The multi-process shuffle harness: cluster worker JVMs ({@code dev.faro.cluster}), one {@code shm} fabric node
 * each (or workers that joined from other hosts, one {@code net} or {@code ucx} node each), run shuffles of the
 * {@code shuffle} module as cluster tasks. It serves the correctness matrix and the kill
 * tests ({@code ShuffleMatrixIT}, {@code ShuffleKillIT}), {@code faro bench shuffle throughput}
 * ({@link dev.faro.bench.shuffle.ShuffleThroughput}) and the experiments E1-E8 ({@code dev.faro.bench.experiment}).
 * Coordination code throughout, except the per-tuple loops of {@link dev.faro.bench.shuffle.NodeShuffle}.
 *
 * <h2>Roles</h2>
 * <ul>
 *   <li>{@link dev.faro.bench.shuffle.ShuffleRunner} (in the coordinator's process) starts a local cluster of N worker
 *       JVMs through {@code dev.faro.cluster}, or listens for N workers that join ({@code ClusterStart}), and keeps
 *       them across cases; a case over k nodes is one cluster round
 *       on the first k ({@code Coordinator.runOnEach}). It computes what every receiver must get
 *       ({@link dev.faro.bench.shuffle.ShuffleTuples#expected}) and watches each case through a {@link
 *       dev.faro.bench.shuffle.RunningCase}.</li>
 *   <li>Each worker is a plain cluster worker with one fabric node for its lifetime; the case is the task handler
 *       {@link dev.faro.bench.shuffle.ShuffleCaseHandler} (registered in {@code META-INF/services}), and per case a
 *       {@link dev.faro.bench.shuffle.NodeShuffle} opens the endpoints, runs the SHUFFLE and RECEIVE threads,
 *       closes the endpoints and reports.</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * The cluster's: one TASK per node carrying the case, the open's all-gathers relayed by the coordinator, one REPLY
 * or FAILED per node. The timed part of a case never touches the coordinator.
 * <pre>
 *  ShuffleRunner / coordinator                         worker i (ShuffleCaseHandler)
 *   TASK bench.shuffle-case {caseId, case, shmDirectory} ►  wait for the previous case; fill tables;
 *                                                      EndpointFactory.open(...) over the relayed exchange
 *                ◄── GATHER case-7/rc-two-sided/addresses ... ──►  GATHERED (once every node contributed)
 *                ◄── GATHER case-7/started (fabric node id)   ──►  GATHERED: the clock starts
 *                    (the exchange listener tells the RunningCase: every node started)
 *                ◄── REPLY {"result": "count=.. checksum=.. outOfOrder=.. bytes=.. elapsedNanos=.. ..."}
 *           or   ◄── FAILED NETWORK receive endpoint 131072 (MEMQ/SR): ...   (at the first failure)
 *   (a node failed or died: the others' tasks are cancelled, which fails their pending all-gathers; their data
 *    threads end by themselves and they answer too)
 * </pre>
 *
 * <h2>Failure</h2>
 * A worker reports the first failure of any of its threads at once (category and message on one line), then lets
 * its other threads end (their waits end at the stall timeout at the latest) and closes the endpoints in the
 * background; its next task waits for that (a worker whose threads never stop exits and is replaced). The round's
 * timeout is the case's deadline; a worker that died, stops answering heartbeats, or does not end a cancelled case
 * within {@code ShuffleRunner.CANCEL_GRACE} is replaced by the cluster before the next case. A joined worker cannot
 * be replaced from here: the cluster waits the join timeout for a new {@code faro worker --join}, and without one the
 * run ends with the cluster's one line naming the lost worker.
 * A killed worker's files are removed by the survivors' fabric nodes, so after {@link
 * dev.faro.bench.shuffle.ShuffleRunner#close()} the shared directory must be empty.
 *
 * <h2>What is measured</h2>
 * Each sending thread owns a table of 16-byte tuples (R(a, b) of TODS19 §7.1) filled before the endpoints open, and
 * scans it {@code scans} times into the SHUFFLE operator's data movement ({@link
 * dev.faro.shuffle.operator.ShuffleSink}). A node's time runs from the end of the open (the started exchange releases
 * every node together) until its last RECEIVE thread saw the end of the stream; setup and teardown are excluded.
 * Receive throughput per node is bytes received per node divided by the longest node's time. A case's
 * {@link dev.faro.bench.shuffle.CaseTuning} can swap the design's endpoints for the TCP socket baseline
 * ({@link dev.faro.shuffle.baseline.TcpShuffleOpener}, opened through the same relayed exchange and authenticated
 * with the cluster's secret, {@code WorkerContext.secret()}, which the local cluster hands its workers through their
 * environment, never on a command line), and sets the credit frequency, the WRITE completion mode, the buffer policy and the RECEIVE
 * threads' extra work per vector; each node also reports its setup time (open plus close of its endpoints).
 */
package dev.faro.bench.shuffle;
