package dev.faro.hyper;

/**
 * How the network thread orders its sends to peers (VLDB16 §3.2.3).
 */
public enum NetworkSchedule {
    /**
     * Unscheduled all-to-all, the baseline: every loop posts what each destination's send queue holds (as credit
     * allows), rotating the first destination; several nodes may send to one node at once.
     */
    ALL_TO_ALL,
    /**
     * Round-robin phases: in phase {@code k} node {@code i} sends only to node {@code (i + 1 + k mod (n−1)) mod n}, at
     * most the phase quota of messages, and no node starts phase {@code k + 1} before every node announced the end of
     * phase {@code k} (an 8-byte RDMA WRITE of the next phase number into each peer's phase word): n−1 conflict-free
     * phases, in which every node sends to exactly one node and receives from exactly one node.
     */
    ROUND_ROBIN
}
