package dev.faro.cluster.coordinator;

import dev.faro.cluster.ClusterException;
import dev.faro.cluster.TaskReply;

/**
 * One node's answer in a round that waits for every node ({@link Coordinator#runOnEach}): its reply, or how it
 * failed, and when the coordinator learnt it. Exactly one of {@code reply} and {@code failure} is set.
 *
 * @param node the node
 * @param reply what the task returned, or null when it failed
 * @param failure why the node has no reply (the task threw, the worker died or went silent, the round timed out), or
 *     null
 * @param atNanos {@link System#nanoTime()} on the coordinator when the answer arrived
 */
public record NodeAnswer(int node, TaskReply reply, ClusterException failure, long atNanos) {

    public NodeAnswer {
        if ((reply == null) == (failure == null)) {
            throw new IllegalArgumentException("exactly one of reply and failure: node=" + node);
        }
    }

    /** Whether the node replied. */
    public boolean succeeded() {
        return reply != null;
    }
}
