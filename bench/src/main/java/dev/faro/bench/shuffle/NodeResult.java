package dev.faro.bench.shuffle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one node of a shuffle reports when it finished without error: what its RECEIVE threads got, and how long the
 * data took. Travels from a worker as one line of {@code key=value} words.
 *
 * @param count tuples received by all of the node's RECEIVE threads
 * @param checksum the sum of {@code mix(value)} over them ({@link ShuffleTuples})
 * @param outOfOrder tuples that arrived after a later row of the same sending thread (counted only when the case
 *     is {@link ShuffleCase#ordered()}, 0 otherwise)
 * @param bytesReceived payload bytes received
 * @param elapsedNanos from the moment the endpoints were open at every node (the last exchange of the open) until the
 *     node's last RECEIVE thread saw the end of the stream: setup and teardown excluded, as in TODS19 §7.1
 * @param leftoverFiles files the node's endpoints left in its shared-memory directory after they were closed (0 if
 *     nothing leaked)
 * @param setupNanos time to open the endpoints (queue pairs, registration, address exchange, connection) plus the
 *     time to close them (TODS19 §7.1.6); 0 where not measured
 * @param creditWrites credit write-backs the node's receive endpoints posted (0 where the design has none)
 * @param bufferWaitNanos summed over the node's SHUFFLE threads: time blocked waiting for a free send buffer
 * @param creditWaitNanos summed over the node's SHUFFLE threads: time blocked waiting for flow-control credit
 * @param dataWaitNanos summed over the node's RECEIVE threads: time blocked waiting for data (0 where not counted:
 *     TCP, MPI)
 * @param ownOpenNanos the node's own part of opening the endpoints: queue pairs, registration and connection,
 *     without the address exchange (and its waits for the other nodes); 0 where not measured
 */
public record NodeResult(
        long count,
        long checksum,
        long outOfOrder,
        long bytesReceived,
        long elapsedNanos,
        int leftoverFiles,
        long setupNanos,
        long creditWrites,
        long bufferWaitNanos,
        long creditWaitNanos,
        long dataWaitNanos,
        long ownOpenNanos) {

    /** A result without resource counters. */
    public NodeResult(
            long count,
            long checksum,
            long outOfOrder,
            long bytesReceived,
            long elapsedNanos,
            int leftoverFiles,
            long setupNanos) {
        this(count, checksum, outOfOrder, bytesReceived, elapsedNanos, leftoverFiles, setupNanos, 0, 0, 0, 0, 0);
    }

    /** A result without a setup time. */
    public NodeResult(
            long count, long checksum, long outOfOrder, long bytesReceived, long elapsedNanos, int leftoverFiles) {
        this(count, checksum, outOfOrder, bytesReceived, elapsedNanos, leftoverFiles, 0);
    }

    /** The record as {@code key=value} words. */
    public String encode() {
        return "count=" + count + " checksum=" + checksum + " outOfOrder=" + outOfOrder + " bytes=" + bytesReceived
                + " elapsedNanos=" + elapsedNanos + " leftoverFiles=" + leftoverFiles + " setupNanos=" + setupNanos
                + " creditWrites=" + creditWrites + " bufferWaitNanos=" + bufferWaitNanos + " creditWaitNanos="
                + creditWaitNanos + " dataWaitNanos=" + dataWaitNanos + " ownOpenNanos=" + ownOpenNanos;
    }

    /** Parses {@link #encode()}'s words. */
    public static NodeResult decode(List<String> words) {
        Map<String, Long> fields = new HashMap<>();
        for (String word : words) {
            int equals = word.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("expected key=value, got '" + word + "'");
            }
            fields.put(word.substring(0, equals), Long.parseLong(word.substring(equals + 1)));
        }
        return new NodeResult(
                get(fields, "count"),
                get(fields, "checksum"),
                get(fields, "outOfOrder"),
                get(fields, "bytes"),
                get(fields, "elapsedNanos"),
                (int) get(fields, "leftoverFiles"),
                fields.getOrDefault("setupNanos", 0L),
                fields.getOrDefault("creditWrites", 0L),
                fields.getOrDefault("bufferWaitNanos", 0L),
                fields.getOrDefault("creditWaitNanos", 0L),
                fields.getOrDefault("dataWaitNanos", 0L),
                fields.getOrDefault("ownOpenNanos", 0L));
    }

    private static long get(Map<String, Long> fields, String key) {
        Long value = fields.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing " + key + "=");
        }
        return value;
    }

    /** Receive throughput of this node alone, in bytes per second. */
    public double bytesPerSecond() {
        return elapsedNanos == 0 ? 0 : bytesReceived * 1e9 / elapsedNanos;
    }
}
