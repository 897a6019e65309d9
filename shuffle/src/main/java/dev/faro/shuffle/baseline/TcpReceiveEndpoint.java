package dev.faro.shuffle.baseline;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The receiving side of the TCP socket baseline: a listening socket on the loopback address, one accepted and
 * authenticated connection per sending endpoint ({@link TcpAcceptor}, {@link TcpHandshake}; the socket closes once
 * they are all in, so a later connection is refused by the operating system), and the paper's receive loop —
 * {@code select()} over every connection, then {@code recv()} from those that are readable — run by whichever
 * RECEIVE thread calls {@link #getData} (under one lock, so that a shared endpoint has one loop). Frames are read
 * straight into free buffers; a connection with no free buffer is paused until one is released, which pushes back on
 * its sender through TCP's window.
 *
 * <p>Thread-safe like every {@link ReceiveEndpoint}. Data path: allocation-free after construction, except what the
 * JDK's selector allocates per {@code select}.
 */
public final class TcpReceiveEndpoint implements ReceiveEndpoint {

    private static final long SELECT_MILLIS = 10;

    private final int id;
    private final TcpShuffleConfig config;
    private final boolean receives;
    private final ServerSocketChannel server;
    private final byte[] token = TcpHandshake.token();
    private final TcpAcceptor acceptor;
    private final Selector selector;
    private final Arena arena = Arena.ofShared();
    private final ByteBuffer[] views;
    private final ShuffleBuffer[] buffers;
    private final ArrayBlockingQueue<ShuffleBuffer> free;
    private final ReentrantLock lock = new ReentrantLock();
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step receiveStep = this::tryReceive;
    private final WaitLoop.Step pollStep = this::tryReceiveNow;

    // Guarded by lock.
    private final ArrayDeque<ShuffleBuffer> ready;
    private Connection[] connections = new Connection[0];
    private int depleted;
    private int expectedDepleted;
    private boolean paused;
    private volatile boolean anyPaused;

    /**
     * Binds a listening socket on the loopback address (an ephemeral port, {@link #port()}).
     *
     * @param receives whether this node is a member of any transmission group (else it expects no data)
     * @param proofs the cluster secret's challenge–response, which every sender must pass
     * @param shuffleName the exchange's name, which every sender's proof must cover
     */
    TcpReceiveEndpoint(
            int id,
            int sources,
            boolean receives,
            TcpShuffleConfig config,
            ChallengeResponse proofs,
            String shuffleName) {
        this.id = id;
        this.config = config;
        this.receives = receives;
        this.failure = new EndpointFailure("tcp receive endpoint " + id + " of '" + shuffleName + "'");
        this.waits = new WaitLoop(failure, config.stallTimeout(), config.progress());
        int count = 2 * sources + config.threadsPerEndpoint() + 1;
        this.views = new ByteBuffer[count];
        this.buffers = new ShuffleBuffer[count];
        this.free = new ArrayBlockingQueue<>(count);
        this.ready = new ArrayDeque<>(count);
        for (int i = 0; i < count; i++) {
            MemorySegment segment = arena.allocate(config.messageBytes(), 64);
            views[i] = segment.asByteBuffer();
            buffers[i] = new ShuffleBuffer(i, segment);
            free.add(buffers[i]);
        }
        ServerSocketChannel listening = null;
        Selector opened = null;
        try {
            listening = ServerSocketChannel.open();
            listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4 * sources + 16);
            opened = Selector.open();
            this.server = listening;
            this.selector = opened;
            this.acceptor = new TcpAcceptor(
                    server,
                    "tcp receive endpoint " + id + " of '" + shuffleName + "'",
                    shuffleName,
                    proofs,
                    token,
                    id,
                    sources,
                    config.handshakeTimeout(),
                    TcpAcceptor.REFUSALS);
        } catch (IOException e) {
            closeQuietly(listening);
            closeQuietly(opened);
            arena.close();
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "tcp receive endpoint " + id + ": cannot listen: " + e.getMessage(),
                    e);
        }
    }

    /** The exchange token senders must name ({@link TcpHandshake}); published with the port. */
    byte[] token() {
        return token.clone();
    }

    /** Connections refused so far: unauthenticated, for another exchange, duplicate, silent, or beyond the cap. */
    int refusedConnections() {
        return acceptor.refused();
    }

    /** The loopback port senders connect to. */
    int port() {
        try {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new FaroException(FaroException.Category.NETWORK, "tcp receive endpoint " + id + ": " + e, e);
        }
    }

    /**
     * Accepts one authenticated connection from sending endpoint {@code i} of every node (they connect while this
     * runs), waiting at most the stall timeout, then stops listening. Called once, by the opener (on a thread of its
     * own, since this node's senders connect meanwhile), before any {@link #getData}.
     */
    void accept(int sources) {
        lock.lock();
        try {
            SocketChannel[] accepted = acceptor.acceptAll(config.stallTimeout());
            List<Connection> taken = new ArrayList<>(sources);
            try {
                for (SocketChannel channel : accepted) {
                    if (channel != null) {
                        Connection connection = new Connection(channel);
                        taken.add(connection);
                        connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
                    }
                }
            } catch (IOException | RuntimeException e) {
                for (SocketChannel channel : accepted) {
                    closeQuietly(channel); // none reached the connections that close() closes
                }
                throw e;
            }
            connections = taken.toArray(new Connection[0]);
            server.close();
            if (taken.size() < sources) {
                throw failure.fail("only " + taken.size() + " of " + sources + " senders connected and authenticated"
                        + " within " + config.stallTimeout() + " (" + acceptor.refused() + " connection(s) refused)");
            }
            expectedDepleted = receives ? sources : 0;
        } catch (IOException e) {
            throw failure.fail("accepting connections failed: " + e.getMessage());
        } finally {
            lock.unlock();
        }
    }

    /** Makes a running {@link #accept} give up soon (another part of the open failed). Any thread. */
    void abortAccept() {
        acceptor.abort();
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer getData() {
        lock.lock();
        try {
            int index = waits.await(receiveStep, 0, null);
            if (index == WaitLoop.STALLED) {
                throw failure.fail("no data for " + waits.stall() + " (" + depleted + " of " + expectedDepleted
                        + " senders depleted)");
            }
            return index == WaitLoop.END_OF_STREAM ? null : buffers[index];
        } finally {
            lock.unlock();
        }
    }

    /** {@link #getData} without waiting: a {@code selectNow} and the reads it allows. */
    @Override
    public ShuffleBuffer poll() {
        if (!lock.tryLock()) {
            return NOT_YET; // another thread runs the receive loop
        }
        try {
            int index = waits.attempt(pollStep, 0);
            if (index == WaitLoop.IDLE) {
                return NOT_YET;
            }
            return index == WaitLoop.END_OF_STREAM ? null : buffers[index];
        } finally {
            lock.unlock();
        }
    }

    private int tryReceiveNow(int unused) {
        return receiveRound(0);
    }

    private int tryReceive(int unused) {
        return receiveRound(SELECT_MILLIS);
    }

    /**
     * One round of the receive loop (caller holds the lock): a ready buffer's index, {@link WaitLoop#END_OF_STREAM},
     * or a {@code select} of up to {@value #SELECT_MILLIS} ms and the reads it allows.
     */
    private int receiveRound(long selectMillis) {
        ShuffleBuffer buffer = ready.poll();
        if (buffer != null) {
            return buffer.index();
        }
        if (depleted == expectedDepleted) {
            return WaitLoop.END_OF_STREAM;
        }
        if (paused && !free.isEmpty()) {
            resumePaused();
        }
        try {
            if (selectMillis == 0) {
                selector.selectNow();
            } else {
                selector.select(selectMillis);
            }
            return readSelected() > 0 ? WaitLoop.PROGRESS : WaitLoop.BLOCKED;
        } catch (IOException e) {
            throw failure.fail("receiving failed: " + e.getMessage());
        }
    }

    @Override
    public void release(ShuffleBuffer buffer) {
        free.offer(buffer);
        if (anyPaused) {
            selector.wakeup();
        }
    }

    /** Reads every readable connection until it would block or runs out of buffers; returns the frames completed. */
    private int readSelected() throws IOException {
        int frames = 0;
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
            SelectionKey key = keys.next();
            keys.remove();
            if (key.isValid() && key.isReadable()) {
                frames += ((Connection) key.attachment()).read();
            }
        }
        return frames;
    }

    private void resumePaused() {
        for (Connection connection : connections) {
            if (connection.paused) {
                connection.paused = false;
                connection.key.interestOps(SelectionKey.OP_READ);
            }
        }
        paused = false;
        anyPaused = false;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            for (Connection connection : connections) {
                try {
                    connection.channel.close();
                } catch (IOException e) {
                    // closing: nothing left to report to
                }
            }
            try {
                acceptor.close();
                selector.close();
                server.close();
            } catch (IOException e) {
                // closing
            }
            if (arena.scope().isAlive()) {
                arena.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** One sender's stream: the frame being read into {@link #current}. Touched only under the endpoint's lock. */
    private final class Connection {
        final SocketChannel channel;
        SelectionKey key;
        ShuffleBuffer current;
        ByteBuffer view;
        boolean headerDone;
        boolean depletedSeen;
        boolean paused;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }

        /** Reads until the socket would block; returns the frames completed. */
        int read() throws IOException {
            int frames = 0;
            while (true) {
                if (current == null) {
                    current = free.poll();
                    if (current == null) {
                        paused = true;
                        TcpReceiveEndpoint.this.paused = true;
                        anyPaused = true;
                        key.interestOps(0);
                        return frames;
                    }
                    view = views[current.index()];
                    view.clear().limit(MessageHeaderDescriptor.LENGTH);
                    headerDone = false;
                }
                int read = channel.read(view);
                if (read < 0) {
                    onEndOfStream();
                    return frames;
                }
                if (view.hasRemaining()) {
                    return frames; // would block mid-frame
                }
                MemorySegment segment = current.segment();
                if (!headerDone) {
                    int length = MessageHeaderDescriptor.checkedPayloadLength(segment, 0, segment.byteSize());
                    if (length == MessageHeaderDescriptor.NOT_A_HEADER) {
                        throw failure.fail("a frame without the shuffle header's magic and version arrived");
                    }
                    if (length < 0) {
                        throw failure.fail("a frame announced " + MessageHeaderDescriptor.payloadLength(segment, 0)
                                + " payload bytes");
                    }
                    headerDone = true;
                    view.limit(MessageHeaderDescriptor.LENGTH + length);
                    if (length > 0) {
                        continue;
                    }
                }
                StreamState state = MessageHeaderDescriptor.state(segment, 0);
                int source = MessageHeaderDescriptor.source(segment, 0);
                current.received(state, source, source >>> 16, MessageHeaderDescriptor.payloadLength(segment, 0), 0);
                if (state == StreamState.DEPLETED) {
                    depletedSeen = true;
                    depleted++;
                }
                ready.add(current);
                current = null;
                frames++;
            }
        }

        private void onEndOfStream() throws IOException {
            key.cancel();
            channel.close();
            if (current != null) {
                if (view.position() > 0) {
                    throw failure.fail("a sender closed its connection in the middle of a frame");
                }
                free.offer(current);
                current = null;
            }
            if (receives && !depletedSeen) {
                throw failure.fail("a sender closed its connection before its last buffer");
            }
        }
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing after a failure: the failure is what the caller reports
        }
    }
}
