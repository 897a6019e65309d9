package dev.faro.bench.middleware;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One measured point: the median run's time (the slowest node's, as the plan ends when the last worker ends) and
 * the counters summed over nodes.
 *
 * @param seconds time of the 2-stage shuffle, median over runs
 * @param cpuSeconds CPU time all processes used during it (every thread of each worker JVM), median over runs: what
 *     the transport costs, less sensitive than the time to what else runs on the machine
 * @param connectionsPerProcess connections (middleware) or socket channels (NIO) of one process
 * @param ringsPerProcess rings (middleware) or buffers (NIO) of one process
 */
record MiddlewareResult(
        MiddlewareCase point,
        double seconds,
        double cpuSeconds,
        long rows,
        long writes,
        long remoteBytes,
        long notificationMessages,
        long notificationEntries,
        long sendBlocks,
        int connectionsPerProcess,
        int ringsPerProcess) {

    static MiddlewareResult merge(MiddlewareCase point, double seconds, double cpuSeconds, List<JsonNode> replies) {
        long rows = 0;
        long writes = 0;
        long bytes = 0;
        long messages = 0;
        long entries = 0;
        long blocks = 0;
        for (JsonNode reply : replies) {
            rows += reply.path("rows").asLong();
            writes += reply.path("writes").asLong();
            bytes += reply.path("remoteBytes").asLong();
            messages += reply.path("notificationMessages").asLong();
            entries += reply.path("notificationEntries").asLong();
            blocks += reply.path("sendBlocks").asLong();
        }
        JsonNode first = replies.getFirst();
        return new MiddlewareResult(
                point,
                seconds,
                cpuSeconds,
                rows,
                writes,
                bytes,
                messages,
                entries,
                blocks,
                first.path("connections").asInt(),
                first.path("rings").asInt());
    }

    /** Notification messages per MiB sent between processes. */
    double notificationsPerMib() {
        return remoteBytes == 0 ? Double.NaN : notificationMessages / (remoteBytes / 1048576.0);
    }

    /** WRITEs per MiB sent between processes. */
    double writesPerMib() {
        return remoteBytes == 0 ? Double.NaN : writes / (remoteBytes / 1048576.0);
    }
}
