package dev.faro.cluster.protocol;

import dev.faro.fabric.FaroException;

/** A peer could not prove it knows the cluster secret, or refused us: an {@code INVALID_ARGUMENT} failure. */
public final class AuthenticationException extends FaroException {

    public AuthenticationException(String message) {
        super(Category.INVALID_ARGUMENT, message);
    }
}
