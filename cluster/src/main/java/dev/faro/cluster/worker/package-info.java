/**
 * The worker process: {@link dev.faro.cluster.worker.WorkerMain} joins a coordinator, opens one fabric node for its
 * lifetime and runs typed JSON tasks on their own threads through {@link dev.faro.cluster.worker.TaskHandler}s found
 * with {@link java.util.ServiceLoader}. A handler gets a {@link dev.faro.cluster.worker.WorkerContext}: node index
 * and count, the fabric, a {@code PeerExchange} relayed through the coordinator, the worker's attributes and the
 * task's cancellation state. Informational lines go to standard output, warnings and errors to standard error.
 */
package dev.faro.cluster.worker;
