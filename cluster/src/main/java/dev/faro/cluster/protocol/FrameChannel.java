package dev.faro.cluster.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;

/**
 * A TCP connection that carries {@link Frame}s (layout in the package documentation). Coordination code.
 *
 * <p>Threads: any thread may {@link #send} (sends are serialized on the output stream); one thread at a time
 * {@link #receive}s; {@link #close} may be called from any thread and makes a blocked receive fail.
 */
public final class FrameChannel implements AutoCloseable {

    /** "FRC1": every frame starts with it, so a stray connection or a desynchronized stream fails loudly. */
    static final int MAGIC = 0x46524331;

    /** Frame limit before authentication: an unauthenticated peer cannot make us allocate much. */
    public static final int HANDSHAKE_MAX_FRAME_BYTES = 64 * 1024;

    /** Frame limit after authentication: result payloads may be large. */
    public static final int SESSION_MAX_FRAME_BYTES = Integer.MAX_VALUE - 64;

    private static final int PROGRESS_CHUNK_BYTES = 1 << 20;
    /** Stream buffers before authentication: small, so a connection that never authenticates costs little. */
    private static final int HANDSHAKE_BUFFER_BYTES = 512;
    /** Stream buffers once the peer is authenticated. */
    private static final int SESSION_BUFFER_BYTES = 64 * 1024;

    /** Null for a channel over plain streams ({@link #FrameChannel(InputStream, OutputStream, String)}). */
    private final Socket socket;

    private final Object sendLock = new Object();
    /** Replaced once by {@link #authenticated()} (a larger buffer); read by the receiving thread. */
    private DataInputStream input;
    /** Replaced once by {@link #authenticated()}; guarded by {@link #sendLock}. */
    private DataOutputStream output;

    private final String peer;
    private volatile int maxFrameBytes = HANDSHAKE_MAX_FRAME_BYTES;
    private volatile long lastReceiveProgressNanos = System.nanoTime();

    public FrameChannel(Socket socket) throws IOException {
        this(
                socket,
                socket.getInputStream(),
                socket.getOutputStream(),
                String.valueOf(socket.getRemoteSocketAddress()));
        socket.setTcpNoDelay(true);
    }

    /** A channel over plain streams, without a socket: for decoding frames in-process (tests, fuzzing). */
    FrameChannel(InputStream in, OutputStream out, String peer) {
        this(null, in, out, peer);
    }

    private FrameChannel(Socket socket, InputStream in, OutputStream out, String peer) {
        this.socket = socket;
        this.input = new DataInputStream(new BufferedInputStream(in, HANDSHAKE_BUFFER_BYTES));
        this.output = new DataOutputStream(new BufferedOutputStream(out, HANDSHAKE_BUFFER_BYTES));
        this.peer = peer;
    }

    /** The remote address, for messages. */
    public String peer() {
        return peer;
    }

    /**
     * Raises the frame limit and enlarges the stream buffers once the peer is authenticated. Call from the receiving
     * thread, with no send in progress (between the handshake and the session); bytes already buffered are kept.
     */
    public void authenticated() {
        maxFrameBytes = SESSION_MAX_FRAME_BYTES;
        input = new DataInputStream(new BufferedInputStream(input, SESSION_BUFFER_BYTES));
        synchronized (sendLock) {
            output = new DataOutputStream(new BufferedOutputStream(output, SESSION_BUFFER_BYTES));
        }
    }

    /** How long {@link #receive} may block before it throws {@link SocketTimeoutException}; zero waits forever. */
    public void receiveTimeout(Duration timeout) throws IOException {
        if (socket == null) {
            return; // streams: reads end at their end
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    /** Writes one frame and flushes it. */
    public void send(Frame frame) throws IOException {
        byte[] header = Json.MAPPER.writeValueAsBytes(frame.header());
        byte[] payload = frame.payload();
        if ((long) header.length + payload.length > maxFrameBytes) {
            throw new IOException("frame of " + ((long) header.length + payload.length) + " B exceeds the limit of "
                    + maxFrameBytes + " B");
        }
        synchronized (sendLock) {
            output.writeInt(MAGIC);
            output.writeInt(header.length);
            output.writeInt(payload.length);
            output.write(header);
            output.write(payload);
            output.flush();
        }
    }

    /**
     * Reads one frame.
     *
     * @throws EOFException when the peer closed the connection
     * @throws SocketTimeoutException when the receive timeout passed without a frame
     * @throws ProtocolException when the bytes are not a frame
     */
    public Frame receive() throws IOException {
        int magic = input.readInt();
        if (magic != MAGIC) {
            throw new ProtocolException(
                    "not a Faro cluster frame from " + peer + " (magic 0x" + Integer.toHexString(magic) + ")");
        }
        int headerLength = input.readInt();
        int payloadLength = input.readInt();
        if (headerLength <= 0 || payloadLength < 0 || (long) headerLength + payloadLength > maxFrameBytes) {
            throw new ProtocolException("bad frame lengths from " + peer + ": header=" + headerLength + " payload="
                    + payloadLength + " limit=" + maxFrameBytes);
        }
        lastReceiveProgressNanos = System.nanoTime();
        byte[] header = readFully(headerLength);
        byte[] payload = readFully(payloadLength);
        JsonNode tree;
        try {
            tree = Json.MAPPER.readTree(header);
        } catch (IOException e) {
            // parsing bytes in memory does no I/O: Jackson's parse errors, and CharConversionException for bytes that
            // are no text in the encoding it detected
            throw new ProtocolException("frame header from " + peer + " is not JSON: " + e.getMessage(), e);
        }
        if (!(tree instanceof ObjectNode object)) {
            throw new ProtocolException("frame header from " + peer + " is not a JSON object");
        }
        return new Frame(object, payload);
    }

    /**
     * Reads {@code length} bytes in chunks, noting progress after each (a large frame is not silence). The array grows
     * with the bytes that arrive, not with the length the peer announced: a frame that claims 2 GiB and ends early
     * costs what it sent.
     */
    private byte[] readFully(int length) throws IOException {
        byte[] bytes = new byte[Math.min(length, PROGRESS_CHUNK_BYTES)];
        int done = 0;
        while (done < length) {
            if (done == bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(length, 2L * bytes.length));
            }
            int read = input.read(bytes, done, Math.min(bytes.length - done, PROGRESS_CHUNK_BYTES));
            if (read < 0) {
                throw new EOFException("connection to " + peer + " ended inside a frame");
            }
            done += read;
            lastReceiveProgressNanos = System.nanoTime();
        }
        return bytes;
    }

    /**
     * When {@link #receive} last made progress (a frame started or bytes of it arrived): lets a peer that streams a
     * large frame count as alive. Written by the receiving thread, read by any.
     */
    public long lastReceiveProgressNanos() {
        return lastReceiveProgressNanos;
    }

    public boolean isClosed() {
        return socket != null && socket.isClosed();
    }

    /** Closes the socket (or the streams); never throws; idempotent. */
    @Override
    public void close() {
        try {
            if (socket == null) {
                input.close();
                output.close();
                return;
            }
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do with a socket that fails to close
        }
    }
}
