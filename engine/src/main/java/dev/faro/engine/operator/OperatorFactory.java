package dev.faro.engine.operator;

/** Creates the operator instance of one driver (thread) of a pipeline. Immutable and thread-safe. */
public interface OperatorFactory {

    /** A new operator for the driver running on pipeline thread {@code thread}. */
    Operator create(int thread);
}
