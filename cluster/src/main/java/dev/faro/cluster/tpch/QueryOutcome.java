package dev.faro.cluster.tpch;

import java.util.List;

/**
 * One query's answer and figures as the coordinator saw them.
 *
 * @param query the TPC-H query number
 * @param columns the result's column names
 * @param rows the result rows (see {@link ResultCodec} for the value types)
 * @param elapsedNanos wall time at the coordinator, from sending the plan to the last node's reply
 * @param bytesShuffled bytes every node sent through exchanges, summed over the nodes
 * @param bytesReceivedPerNode the largest number of bytes one node received through exchanges
 */
public record QueryOutcome(
        int query,
        List<String> columns,
        List<List<Object>> rows,
        long elapsedNanos,
        long bytesShuffled,
        long bytesReceivedPerNode) {

    public QueryOutcome {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** TODS19's shuffle throughput per node: bytes received per node over the response time, in bytes/s. */
    public double shuffleThroughputPerNode() {
        return elapsedNanos == 0 ? 0 : bytesReceivedPerNode * 1e9 / elapsedNanos;
    }
}
