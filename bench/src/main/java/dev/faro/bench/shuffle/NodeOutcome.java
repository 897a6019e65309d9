package dev.faro.bench.shuffle;

import java.util.Objects;

/** How one node's part of a case ended, as the coordinator saw it. */
public sealed interface NodeOutcome {

    /** Category of a failure the coordinator itself diagnosed: the worker process died or stopped answering. */
    String WORKER = "WORKER";

    /** Category of a node that did not finish before the case's deadline. */
    String DEADLINE = "DEADLINE";

    /** {@link System#nanoTime()} in the coordinator when the outcome arrived. */
    long atNanos();

    /** The node finished and reported what it received. */
    record Finished(NodeResult result, long atNanos) implements NodeOutcome {
        public Finished {
            Objects.requireNonNull(result, "result is null");
        }
    }

    /**
     * The node failed.
     *
     * @param category the worker's FaroException category ({@code NETWORK}, {@code TIMEOUT}, ...), {@code INTERNAL}
     *     for a bug, or {@link #WORKER} / {@link #DEADLINE} when the coordinator diagnosed it
     * @param message one line, for the user
     */
    record Failed(String category, String message, long atNanos) implements NodeOutcome {
        public Failed {
            Objects.requireNonNull(category, "category is null");
            Objects.requireNonNull(message, "message is null");
        }

        @Override
        public String toString() {
            return category + ": " + message;
        }
    }
}
