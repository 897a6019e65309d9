package dev.faro.engine.exec;

import java.util.List;

/** One node's statistics of one query: wall time, per-pipeline times, and per-exchange traffic. */
public record QueryStatistics(
        long elapsedNanos, List<PipelineStatistics> pipelines, List<ExchangeStatistics> exchanges) {

    public QueryStatistics {
        pipelines = List.copyOf(pipelines);
        exchanges = List.copyOf(exchanges);
    }

    /** Bytes this node sent over all exchanges (each row once, however many destinations it had). */
    public long bytesSent() {
        long bytes = 0;
        for (ExchangeStatistics exchange : exchanges) {
            bytes += exchange.bytesSent();
        }
        return bytes;
    }

    /** Bytes this node received over all exchanges. */
    public long bytesReceived() {
        long bytes = 0;
        for (ExchangeStatistics exchange : exchanges) {
            bytes += exchange.bytesReceived();
        }
        return bytes;
    }
}
