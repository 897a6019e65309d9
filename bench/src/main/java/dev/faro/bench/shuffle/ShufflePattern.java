package dev.faro.bench.shuffle;

import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The three communication patterns of TODS19 §4.1 as transmission groups, the same ones the in-JVM harness uses.
 * Multicast uses overlapping groups {@code {0, 1}, {1, ..., n-1}, {0}}, so a node is fed from several output buffers
 * of every sending thread.
 */
public enum ShufflePattern {
    REPARTITION,
    MULTICAST,
    BROADCAST;

    /** The groups of this pattern over {@code nodes} nodes. */
    public TransmissionGroups groups(int nodes) {
        return switch (this) {
            case REPARTITION -> TransmissionGroups.repartition(nodes);
            case BROADCAST -> TransmissionGroups.broadcast(nodes);
            case MULTICAST ->
                TransmissionGroups.of(
                        nodes,
                        List.of(new int[] {0, 1}, IntStream.range(1, nodes).toArray(), new int[] {0}));
        };
    }

    /** The lower-case name used in labels and on command lines. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
