package dev.faro.engine.exec;

import java.util.List;

/** One node's statistics of one query: wall time, per-pipeline times, and per-exchange traffic. */
public record QueryStatistics(long elapsedNanos, List<Long> pipelineNanos, List<ExchangeStatistics> exchanges) {

    public QueryStatistics {
        pipelineNanos = List.copyOf(pipelineNanos);
        exchanges = List.copyOf(exchanges);
    }

    /** Bytes this node sent over all exchanges. */
    public long bytesSent() {
        long bytes = 0;
        for (ExchangeStatistics exchange : exchanges) {
            bytes += exchange.bytesSent();
        }
        return bytes;
    }
}
