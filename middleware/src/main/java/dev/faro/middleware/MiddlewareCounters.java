package dev.faro.middleware;

/**
 * What one process's middleware did since open (the paper's resources, and our V3 figures).
 *
 * @param writesPosted one-sided WRITEs posted (by workers and, deferred, by the network thread)
 * @param remoteBytes row bytes (records with headers) sent to other processes
 * @param notificationMessages notification SENDs (WRITTEN batches from the network thread, READs from workers)
 * @param notificationEntries WRITTEN and READ entries in those messages
 * @param notificationsReceived notification messages received
 * @param sendBlocks times a worker found its outgoing ring full and had to wait
 */
public record MiddlewareCounters(
        long writesPosted,
        long remoteBytes,
        long notificationMessages,
        long notificationEntries,
        long notificationsReceived,
        long sendBlocks) {}
