package dev.faro.hyper;

/**
 * The request ids a {@link Multiplexer} posts, so that a completion names what completed: kind (8 bits), the peer's
 * connection epoch (16: completions of a replaced queue pair are ignored), the peer node (8) and the message index
 * (32). Stateless.
 */
final class RequestIds {

    static final int KIND_DATA = 0;
    static final int KIND_END = 1;
    static final int KIND_RECEIVE = 2;
    static final int KIND_CREDIT = 3;
    static final int KIND_PHASE = 4;

    private RequestIds() {}

    static long of(int kind, int epoch, int peer, int index) {
        return (long) kind << 56 | (long) (epoch & 0xFFFF) << 40 | (long) (peer & 0xFF) << 32 | (index & 0xFFFF_FFFFL);
    }

    static int kind(long id) {
        return (int) (id >>> 56);
    }

    static int peer(long id) {
        return (int) (id >>> 32) & 0xFF;
    }

    static int index(long id) {
        return (int) id;
    }

    /** Whether {@code id} was posted on the connection whose epoch is {@code epoch}. */
    static boolean ofEpoch(long id, int epoch) {
        return (int) (id >>> 40 & 0xFFFF) == (epoch & 0xFFFF);
    }
}
