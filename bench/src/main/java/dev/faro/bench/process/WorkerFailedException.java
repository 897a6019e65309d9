package dev.faro.bench.process;

import dev.faro.fabric.FaroException;

/**
 * A worker process died, answered with an error, or did not answer in time. The message names the worker and the
 * command and is meant for the user as it is (one line, or one line plus the worker's last standard-error lines).
 */
public final class WorkerFailedException extends FaroException {

    private final String workerName;

    public WorkerFailedException(String workerName, String message) {
        super(Category.NETWORK, message);
        this.workerName = workerName;
    }

    /** The name the worker was started with. */
    public String workerName() {
        return workerName;
    }
}
