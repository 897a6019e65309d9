package dev.faro.fabric.net;

/**
 * What a {@link Connection} calls for every inbound frame: once its header is decoded (to choose where the payload
 * goes, and to check rights before a byte of it lands) and once the payload is in place. One handler per phase and
 * role: {@link Handshake} before authentication, then {@link Responder} on accepted connections (requests) and
 * {@link ResponseAdapter} on dialed ones (responses).
 *
 * <p>Progress thread only; implementations keep per-frame state in the connection, not in themselves.
 */
interface FrameHandler {

    /**
     * The header is decoded and its payload length checked against the type. Choose the payload's destination with
     * {@link Connection#sinkTo}, {@link Connection#sinkSmall} or leave the default (discard).
     */
    void onHeader(Connection connection, FrameDescriptor.Header header, long nowNs);

    /** The payload is in place (a WRITE's last word stored last, with release). */
    void onFrame(Connection connection, FrameDescriptor.Header header, long nowNs);

    /** The connection closed between {@link #onHeader} and {@link #onFrame}: release what the frame holds. */
    default void onAbort(Connection connection) {}
}
