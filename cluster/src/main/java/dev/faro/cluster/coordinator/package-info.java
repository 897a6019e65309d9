/**
 * The coordinator: {@link dev.faro.cluster.coordinator.LocalCluster#start} for workers on this host,
 * {@link dev.faro.cluster.coordinator.Coordinator#listen} for workers started by hand on other hosts. It admits
 * workers, runs task rounds ({@code runOnAll}), relays all-gathers, and replaces lost workers.
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
 *  cancelled task still running after cancelGrace ─► worker stopped and replaced
 * </pre>
 * The next round waits until every node has a ready and idle worker (or reports once why a node could not be
 * filled, then tries again).
 */
package dev.faro.cluster.coordinator;
