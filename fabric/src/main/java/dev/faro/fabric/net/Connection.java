package dev.faro.fabric.net;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One TCP connection between two nodes, owned by the progress thread: the socket, its life cycle, and an inbound
 * parser that places each frame's payload where its handler says (straight into registered memory for large
 * payloads); its outbound half is a {@link FrameWriter}.
 *
 * <h2>Life cycle</h2>
 * <pre>
 *  dialer:   CONNECTING ──finishConnect──► HANDSHAKE ──WELCOME──► READY ──EOF, error, silence──► CLOSED
 *  acceptor:                 accept ────► HANDSHAKE ──PROOF ok──► READY ──────────────────────► CLOSED
 * </pre>
 * The handshake ({@link Handshake}) authenticates both ends with the shared secret; a connection that fails it is
 * closed and, on the accepting side, leaves no trace but a log line.
 *
 * <h2>Inbound</h2>
 * Reads go into {@link #in} in chunks of {@link #READ_CHUNK} bytes while a header is awaited; a payload of at least
 * {@link #DIRECT_READ_MIN} bytes still to come is read straight into its destination. A region payload's last 8 bytes
 * are read aside and stored last with release ({@link #sinkTo}), so a peer polling the last word sees all the others.
 *
 * <h2>Outbound</h2>
 * See {@link FrameWriter}.
 *
 * <p>Data path: allocation-free after construction. Progress thread only.
 */
final class Connection {

    static final int IN_CAPACITY = 16 * 1024;
    static final int READ_CHUNK = 8 * 1024;
    static final int DIRECT_READ_MIN = 8 * 1024;
    /** The most {@link #discardInput} reads before a close: a peer still streaming is not waited out. */
    static final int DISCARD_LIMIT = 1 << 20;

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    enum Phase {
        CONNECTING,
        HANDSHAKE,
        READY,
        CLOSED
    }

    final ProgressAgent agent;
    final SocketChannel channel;
    final boolean dialer;
    final InetSocketAddress peerSocket;
    SelectionKey key;
    Phase phase;
    /** The peer node: known at creation for a dialer, after the handshake for an acceptor. */
    RemoteNode remote;
    /** CONNECTING and HANDSHAKE must end before this. */
    long deadlineNs;

    long lastReadNs;

    // Handshake state (see Handshake).
    int handshakeStep;
    long handshakePeerNode;
    byte[] localNonce;
    byte[] remoteNonce;

    // Inbound.
    private final ByteBuffer in = ByteBuffer.allocateDirect(IN_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    private final FrameDescriptor.Header header = new FrameDescriptor.Header();
    private boolean inBody;
    private ByteBuffer sink;
    private long bodyRemaining;
    private final ByteBuffer tail = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());
    private MemorySegment tailSegment;
    private long tailOffset;
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64 * 1024);
    /** Small payloads (handshake, atomic operands), read whole before the handler sees them. */
    final ByteBuffer small =
            ByteBuffer.allocate(FrameDescriptor.MAX_HANDSHAKE_PAYLOAD).order(ByteOrder.LITTLE_ENDIAN);

    private final RegionViews inViews = new RegionViews();
    private boolean readPaused;

    // Per-frame context of the handlers.
    int action;
    NetRcQueuePair frameQueuePair;
    NetMemoryRegion frameRegion;

    /** The outbound half: frames to the peer, written as far as the socket takes them. */
    final FrameWriter writer;

    Connection(
            ProgressAgent agent,
            SocketChannel channel,
            boolean dialer,
            InetSocketAddress peerSocket,
            Phase phase,
            long nowNs) {
        this.agent = agent;
        this.channel = channel;
        this.dialer = dialer;
        this.peerSocket = peerSocket;
        this.phase = phase;
        this.deadlineNs = nowNs + agent.peerTimeoutNs;
        this.lastReadNs = nowNs;
        in.flip(); // empty, in read mode
        this.writer = new FrameWriter(this, nowNs);
    }

    boolean isReady() {
        return phase == Phase.READY;
    }

    /** The header of the frame being read. */
    FrameDescriptor.Header header() {
        return header;
    }

    private FrameHandler handler() {
        return phase == Phase.READY ? (dialer ? agent.responses : agent.responder) : agent.handshake;
    }

    // ================================================================================================= inbound

    /** Parses and handles every frame the socket has for us now. Returns the frames handled. */
    int onReadable(long nowNs) {
        int frames = 0;
        while (phase != Phase.CLOSED) {
            if (!inBody) {
                if (phase == Phase.READY && !dialer && !canAcceptRequest()) {
                    pauseReading();
                    break;
                }
                if (in.remaining() < FrameDescriptor.HEADER_LENGTH) {
                    if (fill(nowNs) <= 0) {
                        break;
                    }
                    continue;
                }
                if (!header.decode(in)) {
                    agent.nodes.onConnectionFailed(
                            this, "received something that is not a faro net frame (bad magic or" + " version)");
                    break;
                }
                if (!header.hasValidLength(NetFabric.CAPABILITIES.maxMessageBytes())) {
                    agent.nodes.onConnectionFailed(
                            this,
                            "received a bad frame: type=" + header.type + ", payloadLength=" + header.payloadLength);
                    break;
                }
                sink = null;
                bodyRemaining = header.payloadLength;
                tail.clear().limit(0);
                tailSegment = null;
                handler().onHeader(this, header, nowNs);
                if (phase == Phase.CLOSED) {
                    break;
                }
                inBody = true;
            }
            if (!transferBody(nowNs)) {
                break;
            }
            inBody = false;
            if (tailSegment != null) {
                commitTail();
            }
            handler().onFrame(this, header, nowNs);
            frames++;
        }
        return frames;
    }

    /** Sends the payload to {@code [offset, offset + length)} of a region the handler pinned. */
    void sinkTo(NetMemoryRegion region, long offset, int length) {
        int body = length >= 8 ? length - 8 : length;
        sink = inViews.view(region, offset, body);
        bodyRemaining = body;
        if (length >= 8) {
            tail.clear().limit(8);
            tailSegment = region.segment();
            tailOffset = offset + body;
        }
    }

    /** Reads the payload whole into {@link #small} (at most {@link FrameDescriptor#MAX_HANDSHAKE_PAYLOAD} bytes). */
    void sinkSmall() {
        small.clear().limit(header.payloadLength);
        sink = small;
    }

    private void commitTail() {
        VarHandle.releaseFence();
        if (((tailSegment.address() + tailOffset) & 7) == 0) {
            LONG.setRelease(tailSegment, tailOffset, tail.getLong(0));
        } else {
            for (int i = 0; i < 8; i++) {
                tailSegment.set(ValueLayout.JAVA_BYTE, tailOffset + i, tail.get(i));
            }
        }
        tailSegment = null;
    }

    private boolean transferBody(long nowNs) {
        while (bodyRemaining > 0) {
            if (in.hasRemaining()) {
                int n = (int) Math.min(in.remaining(), bodyRemaining);
                if (sink != null) {
                    int limit = in.limit();
                    in.limit(in.position() + n);
                    sink.put(in);
                    in.limit(limit);
                } else {
                    in.position(in.position() + n);
                }
                bodyRemaining -= n;
            } else if (bodyRemaining >= DIRECT_READ_MIN) {
                ByteBuffer target = sink;
                if (target == null) {
                    scratch.clear().limit((int) Math.min(scratch.capacity(), bodyRemaining));
                    target = scratch;
                }
                int n = read(target, nowNs);
                if (n <= 0) {
                    return false;
                }
                bodyRemaining -= n;
            } else if (fill(nowNs) <= 0) {
                return false;
            }
        }
        while (tail.hasRemaining()) {
            if (in.hasRemaining()) {
                tail.put(in.get());
            } else if (fill(nowNs) <= 0) {
                return false;
            }
        }
        return true;
    }

    /** Reads up to {@link #READ_CHUNK} more bytes into {@link #in}; the count, 0 if none now, -1 if closed. */
    private int fill(long nowNs) {
        in.compact();
        in.limit(Math.min(in.capacity(), in.position() + READ_CHUNK));
        int n;
        try {
            n = channel.read(in);
        } catch (IOException e) {
            in.flip();
            agent.nodes.onConnectionFailed(this, "read failed: " + e.getMessage());
            return -1;
        }
        in.flip();
        return afterRead(n, nowNs);
    }

    private int read(ByteBuffer target, long nowNs) {
        int n;
        try {
            n = channel.read(target);
        } catch (IOException e) {
            agent.nodes.onConnectionFailed(this, "read failed: " + e.getMessage());
            return -1;
        }
        return afterRead(n, nowNs);
    }

    private int afterRead(int n, long nowNs) {
        if (n < 0) {
            agent.nodes.onConnectionFailed(
                    this,
                    phase == Phase.HANDSHAKE
                            ? (dialer
                                    ? "the peer closed the connection during the handshake: it refused this node (is "
                                            + NetFabricProvider.SECRET_OPTION + " the same on both nodes?)"
                                    : "it left during the handshake")
                            : "connection closed by the peer");
            return -1;
        }
        if (n > 0) {
            lastReadNs = nowNs;
        }
        return n;
    }

    /** Whether a request can be taken now: its response (at most a header and a copied payload) fits. */
    boolean canAcceptRequest() {
        return writer.canTakeFrame();
    }

    private void pauseReading() {
        if (!readPaused) {
            readPaused = true;
            updateInterest();
        }
    }

    /** After a flush made room: takes requests again, first those already buffered. Returns frames handled. */
    int resumeIfPaused(long nowNs) {
        if (!readPaused || !canAcceptRequest()) {
            return 0;
        }
        readPaused = false;
        updateInterest();
        return onReadable(nowNs);
    }

    /**
     * READ unless paused; WRITE while output waits. WRITE stays on through a stream of frames (an update per frame
     * would cost a system call each) and goes off when the output is all written, so an idle agent can sleep.
     */
    void updateInterest() {
        if (key == null || !key.isValid() || phase == Phase.CONNECTING) {
            return;
        }
        int ops = (readPaused ? 0 : SelectionKey.OP_READ) | (writer.hasOutput() ? SelectionKey.OP_WRITE : 0);
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Enters READ interest once connected. */
    void onConnected(long nowNs) {
        phase = Phase.HANDSHAKE;
        deadlineNs = nowNs + agent.peerTimeoutNs;
        lastReadNs = nowNs;
        writer.lastWriteNs = nowNs;
        updateInterest();
    }

    /**
     * Closing: reads and drops what the peer sent that this node will no longer handle (at most
     * {@link #DISCARD_LIMIT} bytes). A socket closed with unread input is reset rather than shut down, and the reset
     * throws away what its send buffer still holds: the last answers and the GOODBYE.
     */
    void discardInput() {
        if (phase == Phase.CLOSED || phase == Phase.CONNECTING) {
            return; // nothing to read (and an unconnected channel throws)
        }
        long discarded = 0;
        try {
            while (discarded < DISCARD_LIMIT) {
                scratch.clear();
                int n = channel.read(scratch);
                if (n <= 0) {
                    return;
                }
                discarded += n;
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Closes the socket and releases pinned memory. Idempotent. */
    void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        Phase before = phase;
        phase = Phase.CLOSED;
        if (inBody) {
            inBody = false;
            (before == Phase.READY ? (dialer ? agent.responses : agent.responder) : agent.handshake).onAbort(this);
        }
        if (key != null) {
            key.cancel();
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        writer.release();
        if (frameRegion != null) {
            frameRegion.unpin();
            frameRegion = null;
        }
        inViews.clear();
    }

    @Override
    public String toString() {
        return "Connection[" + (dialer ? "to " : "from ") + peerSocket + ", " + phase
                + (remote != null ? ", node " + Long.toHexString(remote.node) : "") + "]";
    }
}
