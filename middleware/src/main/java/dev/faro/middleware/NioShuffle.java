package dev.faro.middleware;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The paper's baseline: the same shuffle queues over Java NIO sockets, exactly as DAIS16's original middleware —
 * every worker listens on a server socket (loopback here), and one non-blocking channel connects each pair of
 * workers on different processes, with its own outgoing and incoming buffer ({@code ringBytes} each). That is
 * {@code n·n·(m − 1)} channels per process for {@code m} processes of {@code n} workers, against the middleware's
 * {@code m − 1} connections. Same-process pairs use the same in-place rings as the middleware.
 *
 * <p>Coordination code; the per-row path is {@link NioWorker}.
 */
public final class NioShuffle implements AutoCloseable {

    private final MiddlewareConfig config;
    private final Arena arena = Arena.ofShared();
    private final NioWorker[] workers;
    private final SocketChannel[][] channels;
    /** The first channel or selector error a worker met; the shuffle is unusable from then on. */
    private final AtomicReference<FaroException> broken = new AtomicReference<>();

    private volatile boolean closed;

    private NioShuffle(MiddlewareConfig config, int process, SocketChannel[][] channels) throws IOException {
        this.config = config;
        this.channels = channels;
        int n = config.workersPerProcess();
        WorkerSlot[] slots = new WorkerSlot[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new WorkerSlot();
        }
        ReadyRings[] ready = new ReadyRings[n];
        for (int i = 0; i < n; i++) {
            ready[i] = new ReadyRings(config.workers());
        }
        LocalRings local = new LocalRings(config, process, slots, ready, arena);
        workers = new NioWorker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new NioWorker(config, process, i, slots[i], ready[i], local, channels[i], arena, broken);
        }
    }

    /**
     * Opens the baseline for process {@code exchange.nodeIndex()}: listens on loopback, exchanges ports through
     * {@code exchange} (keys {@code middleware.nio.ports} then {@code middleware.nio.connected}), and connects every
     * pair of workers on different processes (the lower global id connects). The exchange has one node per process.
     */
    public static NioShuffle open(MiddlewareConfig config, PeerExchange exchange) {
        return open(config, exchange, "middleware.nio");
    }

    /** {@link #open(MiddlewareConfig, PeerExchange)} with the exchange's keys under {@code keyPrefix}. */
    public static NioShuffle open(MiddlewareConfig config, PeerExchange exchange, String keyPrefix) {
        Objects.requireNonNull(config, "config is null");
        Objects.requireNonNull(keyPrefix, "keyPrefix is null");
        int process = ShuffleMiddleware.checkExchange(config, exchange);
        int n = config.workersPerProcess();
        int total = config.workers();
        ServerSocketChannel[] servers = new ServerSocketChannel[n];
        SocketChannel[][] channels = new SocketChannel[n][total];
        try {
            ByteBuffer ports = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                servers[i] = ServerSocketChannel.open();
                servers[i].bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), total);
                ports.putInt(((InetSocketAddress) servers[i].getLocalAddress()).getPort());
            }
            byte[][] all = exchange.allGather(keyPrefix + ".ports", ports.array());
            int accepts = 0;
            for (int i = 0; i < n; i++) {
                int me = process * n + i;
                for (int other = 0; other < total; other++) {
                    if (config.processOf(other) == process) {
                        continue;
                    }
                    if (me < other) {
                        int port = ByteBuffer.wrap(all[config.processOf(other)])
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .getInt(4 * (other % n));
                        SocketChannel channel =
                                SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                        ByteBuffer hello = ByteBuffer.allocate(4)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .putInt(0, me);
                        while (hello.hasRemaining()) {
                            channel.write(hello);
                        }
                        channels[i][other] = channel;
                    } else {
                        accepts++;
                    }
                }
            }
            for (int i = 0; i < n && accepts > 0; i++) {
                int me = process * n + i;
                for (int other = 0; other < me; other++) {
                    if (config.processOf(other) == process) {
                        continue;
                    }
                    SocketChannel channel = servers[i].accept();
                    ByteBuffer hello = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                    while (hello.hasRemaining()) {
                        if (channel.read(hello) < 0) {
                            throw new IOException("a peer closed its channel during setup");
                        }
                    }
                    channels[i][hello.getInt(0)] = channel;
                }
            }
            for (SocketChannel[] row : channels) {
                for (SocketChannel channel : row) {
                    if (channel != null) {
                        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        channel.configureBlocking(false);
                    }
                }
            }
            exchange.allGather(keyPrefix + ".connected", new byte[0]);
            return new NioShuffle(config, process, channels);
        } catch (IOException e) {
            closeAll(channels);
            throw new FaroException(FaroException.Category.IO, "NIO shuffle setup failed: " + e.getMessage(), e);
        } finally {
            for (ServerSocketChannel server : servers) {
                closeQuietly(server);
            }
        }
    }

    /** The queues of local worker {@code local}. */
    public NioWorker worker(int local) {
        return workers[local];
    }

    public MiddlewareConfig config() {
        return config;
    }

    /** Socket channels this process holds: one per pair of workers on different processes. */
    public int connectionCount() {
        int count = 0;
        for (SocketChannel[] row : channels) {
            for (SocketChannel channel : row) {
                count += channel == null ? 0 : 1;
            }
        }
        return count;
    }

    /**
     * Whether a worker met a broken channel (a peer closed it or it failed) or the shuffle was closed: it moves no more
     * rows, as {@link ShuffleMiddleware#unusable()} for the middleware.
     */
    public boolean unusable() {
        return broken.get() != null || closed;
    }

    /**
     * {@link #unusable()}, after first trying one non-blocking read on every channel: a channel whose peer has gone
     * reads end-of-stream or fails, and one that still holds bytes carries a failed query's rows; either makes the
     * shuffle unusable. Only while no worker uses the shuffle (between queries): it would take a worker's bytes.
     */
    public boolean probeIdle() {
        if (unusable()) {
            return true;
        }
        ByteBuffer probe = ByteBuffer.allocate(1);
        for (SocketChannel[] row : channels) {
            for (SocketChannel channel : row) {
                if (channel == null) {
                    continue;
                }
                probe.clear();
                try {
                    int read = channel.read(probe);
                    if (read != 0) {
                        broken.compareAndSet(
                                null,
                                new FaroException(
                                        FaroException.Category.NETWORK,
                                        read < 0
                                                ? "an NIO channel's peer closed it between queries"
                                                : "an NIO channel holds a failed query's bytes between queries"));
                    }
                } catch (IOException e) {
                    broken.compareAndSet(
                            null,
                            new FaroException(
                                    FaroException.Category.NETWORK, "an NIO channel failed: " + e.getMessage(), e));
                }
            }
        }
        return unusable();
    }

    /** Closes the channels and frees the buffers. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (NioWorker worker : workers) {
            worker.closeSelector();
        }
        closeAll(channels);
        arena.close();
    }

    private static void closeAll(SocketChannel[][] channels) {
        for (SocketChannel[] row : channels) {
            for (SocketChannel channel : row) {
                closeQuietly(channel);
            }
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing: nothing to do about it
        }
    }
}
