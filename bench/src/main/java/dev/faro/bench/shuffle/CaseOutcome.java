package dev.faro.bench.shuffle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of one case across its nodes, next to what each node had to receive. Immutable.
 *
 * @param shuffleCase the case
 * @param expected what every node had to receive
 * @param nodes each node's outcome, by node
 */
public record CaseOutcome(ShuffleCase shuffleCase, ShuffleTuples.Expected expected, List<NodeOutcome> nodes) {

    public CaseOutcome {
        Objects.requireNonNull(shuffleCase, "shuffleCase is null");
        Objects.requireNonNull(expected, "expected is null");
        nodes = List.copyOf(nodes);
        if (nodes.size() != shuffleCase.nodes()) {
            throw new IllegalArgumentException(nodes.size() + " outcomes for " + shuffleCase.nodes() + " nodes");
        }
    }

    /** The nodes that failed, by node. */
    public Map<Integer, NodeOutcome.Failed> failures() {
        Map<Integer, NodeOutcome.Failed> failures = new LinkedHashMap<>();
        for (int node = 0; node < nodes.size(); node++) {
            if (nodes.get(node) instanceof NodeOutcome.Failed failed) {
                failures.put(node, failed);
            }
        }
        return failures;
    }

    /** Node {@code node}'s result. @throws IllegalStateException if it failed */
    public NodeResult result(int node) {
        if (nodes.get(node) instanceof NodeOutcome.Finished finished) {
            return finished.result();
        }
        throw new IllegalStateException(shuffleCase.label() + ": node " + node + " failed: " + nodes.get(node));
    }

    /**
     * Everything that is wrong, one line each: failed nodes, a wrong count or checksum (a tuple lost, duplicated or
     * corrupted, or one too many), tuples out of order where the design promises order, and files the endpoints
     * left in shared memory. Empty when the case delivered every tuple exactly once.
     */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (int node = 0; node < nodes.size(); node++) {
            switch (nodes.get(node)) {
                case NodeOutcome.Failed failed -> problems.add("node " + node + " failed: " + failed);
                case NodeOutcome.Finished finished -> {
                    NodeResult result = finished.result();
                    if (result.count() != expected.count(node)) {
                        problems.add("node " + node + " received " + result.count() + " tuples, expected "
                                + expected.count(node));
                    }
                    if (result.checksum() != expected.checksum(node)) {
                        problems.add("node " + node + " checksum " + result.checksum() + ", expected "
                                + expected.checksum(node));
                    }
                    if (shuffleCase.ordered() && result.outOfOrder() != 0) {
                        problems.add("node " + node + " received " + result.outOfOrder()
                                + " tuples out of order (RC promises per-thread order here)");
                    }
                    if (result.leftoverFiles() != 0) {
                        problems.add("node " + node + " left " + result.leftoverFiles()
                                + " shared-memory files after closing its endpoints");
                    }
                }
            }
        }
        return problems;
    }

    /** The response time: the longest node's time from open to end of stream. */
    public long responseNanos() {
        long longest = 0;
        for (int node = 0; node < nodes.size(); node++) {
            longest = Math.max(longest, result(node).elapsedNanos());
        }
        return longest;
    }

    /** Bytes received per node, averaged over the nodes. */
    public double bytesPerNode() {
        long total = 0;
        for (int node = 0; node < nodes.size(); node++) {
            total += result(node).bytesReceived();
        }
        return (double) total / nodes.size();
    }

    /**
     * The paper's metric (TODS19 §7.1): receive throughput per node, bytes received per node divided by the
     * response time, in bytes per second.
     */
    public double receiveBytesPerNodePerSecond() {
        long response = responseNanos();
        return response == 0 ? 0 : bytesPerNode() * 1e9 / response;
    }

    /** Credit write-backs per MiB received, over all nodes (0 for designs and baselines without them). */
    public double creditWritesPerMebibyte() {
        long writes = 0;
        double bytes = 0;
        for (int node = 0; node < nodes.size(); node++) {
            writes += result(node).creditWrites();
            bytes += result(node).bytesReceived();
        }
        return bytes == 0 ? 0 : writes / (bytes / (1 << 20));
    }

    /**
     * The share of the SHUFFLE threads' time (threads × nodes × response time) spent blocked waiting for a free buffer
     * or for credit; 0 where not counted (TCP, MPI).
     */
    public double sendBlockedFraction() {
        long blocked = 0;
        for (int node = 0; node < nodes.size(); node++) {
            blocked += result(node).bufferWaitNanos() + result(node).creditWaitNanos();
        }
        return share(blocked);
    }

    /** The share of the RECEIVE threads' time spent blocked waiting for data; 0 where not counted (TCP, MPI). */
    public double receiveBlockedFraction() {
        long blocked = 0;
        for (int node = 0; node < nodes.size(); node++) {
            blocked += result(node).dataWaitNanos();
        }
        return share(blocked);
    }

    private double share(long blockedNanos) {
        double threadNanos = (double) responseNanos() * shuffleCase.threads() * nodes.size();
        return threadNanos == 0 ? 0 : blockedNanos / threadNanos;
    }
}
