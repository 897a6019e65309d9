package dev.faro.fabric;

import java.util.Objects;

/**
 * The one exception Faro throws across layers. Its {@link Category} lets a caller act without parsing messages: a
 * {@link Category#NETWORK} failure, for example, is the signal to restart a query.
 *
 * <p>Programming errors inside a layer (a broken invariant) are {@link IllegalStateException} or
 * {@link IllegalArgumentException}; expected data-path conditions are return values, never this exception.
 */
public class FaroException extends RuntimeException {

    /** What kind of failure this is, and so what the caller can do about it. */
    public enum Category {
        /** The caller passed something invalid; nothing was changed. Fix the call. */
        INVALID_ARGUMENT,
        /** A queue is full (send queue, receive queue, completion queue): the caller posted more than it sized for. */
        QUEUE_FULL,
        /** The object (fabric, queue pair, region, endpoint) was closed. */
        CLOSED,
        /** The provider cannot do this at all (for example UD on a provider without datagrams). */
        NOT_SUPPORTED,
        /** A peer failed, disappeared or a message was lost: the work in flight is gone, restart it. */
        NETWORK,
        /** A bounded wait ran out. */
        TIMEOUT,
        /** The operating system refused something (files, mappings, sockets, processes). */
        IO
    }

    private final Category category;

    public FaroException(Category category, String message) {
        super(message);
        this.category = Objects.requireNonNull(category, "category is null");
    }

    public FaroException(Category category, String message, Throwable cause) {
        super(message, cause);
        this.category = Objects.requireNonNull(category, "category is null");
    }

    public Category category() {
        return category;
    }

    /*
     * Precondition helpers. The overloads take primitives so that a passing check on the data path allocates
     * nothing (no varargs array, no boxing); the message is formatted only when the check fails.
     */

    /** Throws {@link Category#INVALID_ARGUMENT} with {@code message} when {@code condition} is false. */
    public static void checkArgument(boolean condition, String message) {
        if (!condition) {
            throw new FaroException(Category.INVALID_ARGUMENT, message);
        }
    }

    /** Throws {@link Category#INVALID_ARGUMENT} with {@code String.format(format, a)} when {@code condition} is false. */
    public static void checkArgument(boolean condition, String format, long a) {
        if (!condition) {
            throw new FaroException(Category.INVALID_ARGUMENT, String.format(format, a));
        }
    }

    /** Two-argument form of {@link #checkArgument(boolean, String, long)}. */
    public static void checkArgument(boolean condition, String format, long a, long b) {
        if (!condition) {
            throw new FaroException(Category.INVALID_ARGUMENT, String.format(format, a, b));
        }
    }

    /** Three-argument form of {@link #checkArgument(boolean, String, long)}. */
    public static void checkArgument(boolean condition, String format, long a, long b, long c) {
        if (!condition) {
            throw new FaroException(Category.INVALID_ARGUMENT, String.format(format, a, b, c));
        }
    }

    /** Object-argument form of {@link #checkArgument(boolean, String, long)}. */
    public static void checkArgument(boolean condition, String format, Object a) {
        if (!condition) {
            throw new FaroException(Category.INVALID_ARGUMENT, String.format(format, a));
        }
    }
}
