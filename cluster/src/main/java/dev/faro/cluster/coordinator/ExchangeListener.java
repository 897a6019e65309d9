package dev.faro.cluster.coordinator;

/**
 * Told about every all-gather the coordinator completes ({@link Coordinator#addExchangeListener}): which task, which
 * key, and every node's value. For progress reports and tests, e.g. to learn that every node of a round got past a
 * named point. Called on a connection's reader thread after the answers went out: return quickly, never block.
 */
@FunctionalInterface
public interface ExchangeListener {

    /**
     * @param taskId the coordinator's id of the round's task
     * @param key the all-gather's key
     * @param values each node's contribution, by node (do not modify)
     */
    void onExchanged(long taskId, String key, byte[][] values);
}
