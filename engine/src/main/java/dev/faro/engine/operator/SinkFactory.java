package dev.faro.engine.operator;

/**
 * The last operator of a pipeline (a pipeline breaker: join build, aggregation, sort, exchange, result). Each
 * driver gets its own instance; after every driver of the pipeline has finished without failure, the executor calls
 * {@link #complete} once, which merges the per-thread state and makes the sink's product available.
 */
public interface SinkFactory extends OperatorFactory {

    /**
     * Merges what the pipeline's drivers produced. Called once, by one thread, after all drivers ended;
     * {@code threads} is how many threads the sink may use for the work.
     */
    void complete(int threads);
}
