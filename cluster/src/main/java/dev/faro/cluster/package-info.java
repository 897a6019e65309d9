/**
 * Faro's cluster runtime: a coordinator (in the CLI process) and worker processes. Workers join over TCP with a
 * shared secret ({@link dev.faro.cluster.protocol}), receive node ids and typed JSON tasks, swap fabric addresses
 * through the coordinator ({@code PeerExchange} relay) and send results back ({@link dev.faro.cluster.TaskReply}).
 * The runtime knows nothing about queries: handlers ({@link dev.faro.cluster.worker.TaskHandler}, found with
 * {@link java.util.ServiceLoader}) give task types their meaning. {@link dev.faro.cluster.coordinator.LocalCluster}
 * launches local workers ({@link dev.faro.cluster.launch}) on this host over the {@code shm} fabric by default.
 */
package dev.faro.cluster;
