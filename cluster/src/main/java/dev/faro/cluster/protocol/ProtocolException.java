package dev.faro.cluster.protocol;

import dev.faro.fabric.FaroException;

/** A peer broke the cluster protocol (bad frame, unknown message, missing field): a {@code NETWORK} failure. */
public final class ProtocolException extends FaroException {

    public ProtocolException(String message) {
        super(Category.NETWORK, message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(Category.NETWORK, message, cause);
    }
}
