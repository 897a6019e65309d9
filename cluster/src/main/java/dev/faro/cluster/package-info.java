/**
 * Faro's cluster runtime: a coordinator (in the CLI process) and worker processes. Workers join over TCP with a
 * shared secret, receive node ids and plans as JSON, swap fabric addresses through the coordinator, and stream
 * results back; the coordinator launches local workers on this host over the {@code shm} fabric by default.
 */
package dev.faro.cluster;
