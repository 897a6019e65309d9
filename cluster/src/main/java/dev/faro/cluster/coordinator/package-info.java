/**
 * The coordinator: {@link dev.faro.cluster.coordinator.LocalCluster#start} for workers on this host,
 * {@link dev.faro.cluster.coordinator.Coordinator#listen} for workers started by hand on other hosts, and
 * {@link dev.faro.cluster.coordinator.ClusterStart} to choose between the two (what the {@code faro} commands' {@code
 * --listen} does: listen, report the workers as they join, fail after the join timeout saying how many did). It admits
 * workers, runs task rounds, relays all-gathers (and tells {@link dev.faro.cluster.coordinator.ExchangeListener}s
 * about each one it completes), and replaces lost workers: a local cluster starts a new JVM; a listening coordinator
 * cannot start one on another host, so it waits (up to the join timeout of the next round) for one to join in its
 * place and otherwise names the lost worker in the round's error. Two kinds of round: {@code runOnAll} on every node,
 * which throws at the first failure, and {@code runOnEach} on the first k nodes, which returns every node's answer
 * ({@link dev.faro.cluster.coordinator.NodeAnswer}: reply or failure, and when it came) for callers that report each
 * node's outcome, such as {@code faro bench shuffle}.
 *
 * <h2>Failure handling</h2>
 * <pre>
 *  detection (within seconds)                  then
 *  socket EOF / IOException  ─┐
 *  local process exit code   ─┼─► connection lost ─► pending tasks fail: "node 1 (pid 1234) died with exit code
 *  no frame for heartbeatTimeout┘                     137 while running task 'query'" ─► round throws at once,
 *                                                     CANCEL to the other nodes ─► slot freed ─► supervisor
 *                                                     launches a replacement ─► join, READY, setup replayed
 *  task FAILED on a live node  ─► round throws, CANCEL to the others
 *  round timeout               ─► round throws TIMEOUT, CANCEL to the nodes still running
 *  (runOnEach: a failure CANCELs the others but the round waits for their answers; at the timeout the nodes still
 *   running are CANCELled and answered TIMEOUT)
 *  cancelled task still running after cancelGrace ─► worker stopped and replaced
 * </pre>
 * The next round waits until every node has a ready and idle worker (or reports once why a node could not be
 * filled, then tries again).
 *
 * <p>Silence is only counted while the coordinator runs: when its own clock jumped between two supervisor passes
 * (SIGSTOP, starvation, a long GC) no worker is blamed and every silence window restarts ({@code Supervision}). A
 * stalled exchange (nothing moves on any node while every worker answers) fails after
 * {@link dev.faro.cluster.coordinator.ClusterConfig#exchangeStallTimeout()} at the node that waits, naming the query,
 * the exchange and the node it waits for; the workers' progress counts ride on the heartbeats for that.
 *
 * <p>Unauthenticated connections: at most {@code WorkerAdmission.MAX_UNAUTHENTICATED} at a time (more are closed at
 * once), each closed when it has not proven the secret within {@code WorkerAdmission.HANDSHAKE_DEADLINE}; log lines
 * about them are sanitised and rate-limited ({@code RateLimitedLog}).
 */
package dev.faro.cluster.coordinator;
