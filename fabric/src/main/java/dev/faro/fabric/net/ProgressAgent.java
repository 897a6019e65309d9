package dev.faro.fabric.net;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The NIC of a {@code net} node: one platform thread that owns the node's sockets and does all its data movement.
 *
 * <h2>Duty cycle ({@link #doWork()})</h2>
 * <ol>
 *   <li>read the clock once;</li>
 *   <li>run the commands application threads queued (connect a queue pair, release a closed one's buffers);</li>
 *   <li>select without blocking and handle what is ready: accept, finish connecting, read and handle frames (serve
 *       requests, complete requests from responses), receive datagrams, write;</li>
 *   <li>take newly posted requests: frames onto each RC peer's connection, datagrams onto the UDP socket;</li>
 *   <li>write every connection's buffered frames;</li>
 *   <li>every millisecond: handshake and connect deadlines, peer liveness (nothing read for {@code peerTimeout}),
 *       heartbeats on quiet connections, held-back datagrams;</li>
 *   <li>return the work done;</li>
 *   <li>after the turn (and after a sleep in the selector): wake the threads waiting on completion queues it published
 *       to, once per queue ({@link #deferWake}).</li>
 * </ol>
 * Idle strategy: {@value #SPINS} idle turns (each polls the selector), then sleep in the selector (at most
 * {@value #MAX_SLEEP_MS} ms); a posting thread wakes a sleeping agent, and the selector wakes it for socket events.
 * It never yields: on a small, busy machine a yield can cost a whole time slice, while the selector wakes it the
 * moment there is work. Sockets it writes to wait for the selector's "writable" once full, so a stream moves in large
 * writes, as a blocking writer would. With {@code net.idle=spin} the agent never sleeps. Inside {@code doWork}
 * nothing blocks; only rare control events (a refused peer, a failed node) are logged.
 *
 * <p>Threads: {@link #execute} and {@link #doorbell} are called by application threads; everything else runs on the
 * agent's thread.
 */
final class ProgressAgent implements Runnable {

    private static final System.Logger LOG = System.getLogger(ProgressAgent.class.getName());
    private static final int SPINS = 100;
    private static final long MAX_SLEEP_MS = 10;
    private static final long DEADLINE_PERIOD_NS = 1_000_000;
    /** How long closing waits in all for full sockets to take this node's last answers and GOODBYEs. */
    private static final long CLOSE_WRITE_MS = 100;

    private static final long CLOSE_WRITE_PAUSE_NS = 100_000;
    private static final Object LISTENER = new Object();

    final NetFabric fabric;
    final long peerTimeoutNs;
    private final long heartbeatIntervalNs;
    private final boolean busySpin;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final DatagramChannel datagrams;
    private final SelectionKey datagramKey;
    private final DatagramEndpoint datagramEndpoint;
    final Handshake handshake;
    final Responder responder;
    final ResponseAdapter responses;
    /** Views for copying small payloads into outbound buffers (used and released within one call). */
    final RegionViews copyViews = new RegionViews();

    /** The other nodes this node knows, and what happens when one fails. */
    final RemoteNodes nodes;

    private final List<Connection> connections = new ArrayList<>();
    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Consumer<SelectionKey> onSelected = this::onSelected;
    private final Thread thread;
    private volatile boolean running = true;
    /** Set while the agent sleeps in the selector; a poster then wakes it. */
    private volatile boolean sleeping;

    private long nowNs;
    private int selectedWork;
    private long nextDeadlineCheckNs;
    private int rotation;
    private boolean retryPending;
    /** Completion queues published to in this turn, whose waiters are woken at its end (see {@link #deferWake}). */
    private NetCompletionQueue[] deferredWakes = new NetCompletionQueue[4];

    private int deferredWakeCount;

    ProgressAgent(NetFabric fabric, NetOptions options, ServerSocketChannel listener, DatagramChannel datagrams)
            throws IOException {
        this.fabric = fabric;
        this.peerTimeoutNs = fabric.config().peerTimeout().toNanos();
        this.heartbeatIntervalNs = Math.max(1_000_000, Math.min(peerTimeoutNs / 4, 1_000_000_000));
        this.busySpin = options.busySpin();
        this.selector = Selector.open();
        this.listener = listener;
        this.datagrams = datagrams;
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT, LISTENER);
        datagrams.configureBlocking(false);
        this.datagramEndpoint = new DatagramEndpoint(fabric, datagrams, options.secret());
        this.datagramKey = datagrams.register(selector, SelectionKey.OP_READ, datagramEndpoint);
        this.handshake = new Handshake(this, options.secret(), fabric.node());
        this.responder = new Responder(fabric);
        this.responses = new ResponseAdapter(fabric);
        this.nodes = new RemoteNodes(this, fabric);
        this.thread = Thread.ofPlatform()
                .daemon()
                .name("faro-net-progress-" + fabric.nodeName())
                .unstarted(this);
    }

    void start() {
        thread.start();
    }

    String nodeName() {
        return fabric.nodeName();
    }

    /** Runs {@code command} on the agent's thread soon. Any thread; coordination code. */
    void execute(Runnable command) {
        commands.add(command);
        selector.wakeup();
    }

    /** A request was posted: wakes the agent if it sleeps. Any thread; data path. */
    void doorbell() {
        if (sleeping) {
            selector.wakeup();
        }
    }

    @Override
    public void run() {
        int idle = 0;
        while (running) {
            int work;
            try {
                work = doWork();
            } catch (Throwable t) {
                fabric.reportAgentFailure(t);
                if (t instanceof Error error) {
                    wakeDeferred(); // what was published before the failure
                    throw error;
                }
                work = 0;
            }
            wakeDeferred();
            if (work > 0) {
                idle = 0;
            } else if (busySpin || ++idle < SPINS) {
                Thread.onSpinWait();
            } else {
                sleep();
                wakeDeferred();
            }
        }
        shutdown();
        wakeDeferred();
    }

    int doWork() throws IOException {
        nowNs = System.nanoTime();
        int work = drainCommands();
        selectedWork = 0;
        selector.selectNow(onSelected);
        work += selectedWork;
        work += transmit();
        for (int i = 0; i < connections.size(); i++) {
            Connection connection = connections.get(i);
            work += connection.writer.flush(nowNs);
            work += connection.resumeIfPaused(nowNs);
        }
        if (nowNs - nextDeadlineCheckNs >= 0) {
            work += checkDeadlines();
            nextDeadlineCheckNs = nowNs + DEADLINE_PERIOD_NS;
        }
        return work;
    }

    private void sleep() {
        sleeping = true;
        try {
            if (!commands.isEmpty() || hasPendingPosts()) {
                return;
            }
            long timeoutMs = retryPending ? 1 : Math.max(1, Math.min(MAX_SLEEP_MS, heartbeatIntervalNs / 2_000_000));
            selectedWork = 0;
            selector.select(onSelected, timeoutMs);
        } catch (IOException e) {
            fabric.reportAgentFailure(e);
        } finally {
            sleeping = false;
        }
    }

    private boolean hasPendingPosts() {
        for (NetQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair != null && queuePair.hasPendingPosts()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the agent takes over waking {@code queue}'s waiters: true on the agent's thread, which wakes them once at
     * the end of its turn ({@link #wakeDeferred}); false on any other thread, which wakes them itself. Data path.
     */
    boolean deferWake(NetCompletionQueue queue) {
        if (!isAgentThread()) {
            return false;
        }
        if (!queue.wakeDeferred) {
            queue.wakeDeferred = true;
            if (deferredWakeCount == deferredWakes.length) {
                deferredWakes = Arrays.copyOf(deferredWakes, 2 * deferredWakes.length); // more queues than ever
            }
            deferredWakes[deferredWakeCount++] = queue;
        }
        return true;
    }

    /** Wakes the waiters of every queue the agent published to since the last call. */
    private void wakeDeferred() {
        for (int i = 0; i < deferredWakeCount; i++) {
            NetCompletionQueue queue = deferredWakes[i];
            deferredWakes[i] = null;
            queue.wakeDeferred = false;
            queue.wakeWaiters();
        }
        deferredWakeCount = 0;
    }

    private int drainCommands() {
        int work = 0;
        Runnable command;
        while ((command = commands.poll()) != null) {
            command.run();
            work++;
        }
        return work;
    }

    // ================================================================================================ selection

    private void onSelected(SelectionKey key) {
        nowNs = System.nanoTime();
        Object attachment = key.attachment();
        if (attachment == LISTENER) {
            selectedWork += accept();
        } else if (attachment == datagramEndpoint) {
            if (key.isValid() && key.isReadable()) {
                selectedWork += datagramEndpoint.onReadable();
            }
            if (key.isValid() && key.isWritable()) {
                datagramEndpoint.blocked = false;
                datagramKey.interestOps(SelectionKey.OP_READ);
                selectedWork++;
            }
        } else if (attachment instanceof Connection connection) {
            if (key.isValid() && key.isConnectable()) {
                finishConnect(connection);
            }
            if (key.isValid() && key.isReadable()) {
                selectedWork += connection.onReadable(nowNs);
            }
            if (key.isValid() && key.isWritable()) {
                selectedWork += connection.writer.onWritable(nowNs);
            }
        }
    }

    private int accept() {
        int accepted = 0;
        while (true) {
            SocketChannel channel;
            try {
                channel = listener.accept();
                if (channel == null) {
                    return accepted;
                }
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                InetSocketAddress peer = (InetSocketAddress) channel.getRemoteAddress();
                Connection connection = new Connection(this, channel, false, peer, Connection.Phase.HANDSHAKE, nowNs);
                connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
                connections.add(connection);
                handshake.accept(connection, nowNs);
                accepted++;
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "fabric node {0}: accepting a connection failed: {1}", nodeName(), e);
                return accepted;
            }
        }
    }

    /** Dials {@code node}; a failure to start fails the node. */
    void dial(RemoteNode node) {
        InetSocketAddress target = node.address.tcp();
        try {
            SocketChannel channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Connection connection = new Connection(this, channel, true, target, Connection.Phase.CONNECTING, nowNs);
            connection.remote = node;
            node.dialed = connection;
            connections.add(connection);
            if (channel.connect(target)) {
                connection.key = channel.register(selector, SelectionKey.OP_READ, connection);
                handshake.start(connection, nowNs);
            } else {
                connection.key = channel.register(selector, SelectionKey.OP_CONNECT, connection);
            }
        } catch (IOException e) {
            if (node.dialed != null) {
                node.dialed.close();
            }
            nodes.fail(node, "cannot connect to " + target + ": " + e.getMessage());
        }
    }

    private void finishConnect(Connection connection) {
        try {
            if (connection.channel.finishConnect()) {
                connection.key.interestOps(SelectionKey.OP_READ);
                handshake.start(connection, nowNs);
                selectedWork++;
            }
        } catch (IOException e) {
            nodes.onConnectionFailed(connection, "cannot connect to " + connection.peerSocket + ": " + e.getMessage());
        }
    }

    // ================================================================================================ transmit

    private int transmit() {
        NetQueuePair[] queuePairs = fabric.queuePairArray();
        int count = queuePairs.length;
        if (count == 0) {
            return 0;
        }
        int work = 0;
        boolean retry = false;
        int start = Math.floorMod(rotation++, count);
        for (int i = 0; i < count; i++) {
            NetQueuePair queuePair = queuePairs[(start + i) % count];
            if (queuePair instanceof NetRcQueuePair rc) {
                work += rc.flushIfInError();
                work += rc.transmit(nowNs);
                retry |= rc.retryAtNs != 0;
            } else if (queuePair instanceof NetUdQueuePair ud && !datagramEndpoint.blocked) {
                work += ud.transmit(datagramEndpoint, nowNs);
                if (datagramEndpoint.blocked) {
                    datagramKey.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                }
            }
        }
        retryPending = retry;
        return work;
    }

    // =============================================================================================== deadlines

    private int checkDeadlines() {
        int work = 0;
        for (int i = 0; i < connections.size(); i++) {
            Connection connection = connections.get(i);
            switch (connection.phase) {
                case CONNECTING, HANDSHAKE -> {
                    if (nowNs - connection.deadlineNs > 0) {
                        String reason =
                                "no " + (connection.phase == Connection.Phase.CONNECTING ? "connection" : "handshake")
                                        + " within " + peerTimeoutNs / 1_000_000 + " ms";
                        if (connection.dialer) {
                            nodes.onConnectionFailed(connection, reason);
                        } else {
                            handshake.refuse(connection, reason);
                        }
                        work++;
                    }
                }
                case READY -> {
                    if (nowNs - connection.lastReadNs > peerTimeoutNs) {
                        nodes.onConnectionFailed(
                                connection,
                                "nothing heard for " + (nowNs - connection.lastReadNs) / 1_000_000
                                        + " ms (peer timeout " + peerTimeoutNs / 1_000_000 + " ms)");
                        work++;
                    } else {
                        work += connection.writer.heartbeatIfQuiet(nowNs, heartbeatIntervalNs);
                    }
                }
                case CLOSED -> {}
            }
        }
        connections.removeIf(connection -> connection.phase == Connection.Phase.CLOSED);
        for (NetQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair instanceof NetUdQueuePair ud && ud.heldDestination != null && nowNs - ud.heldDeadlineNs > 0) {
                work += datagramEndpoint.releaseHeld(ud);
            }
        }
        return work;
    }

    void countAuthenticationFailure() {
        fabric.netCounters().countAuthenticationFailure();
    }

    // =============================================================================================== lifecycle

    /** Stops the thread (bounded wait) after it said goodbye to its peers and closed its sockets. */
    void stop() {
        running = false;
        selector.wakeup();
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.isAlive()) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT,
                    "the progress thread of fabric node " + nodeName() + " did not stop within 5 s");
        }
    }

    boolean isAgentThread() {
        return Thread.currentThread() == thread;
    }

    /**
     * Closing, in the order a peer needs to tell delivered from lost: first every answer this node owes goes out
     * (what is buffered, then an ACK of the last request each RC queue pair placed, {@link
     * Responder#acknowledgePlaced}), only then a GOODBYE on every connection, and the sockets close (input drained,
     * so they shut down rather than reset). A peer fails its outstanding requests when this node is gone, so an answer
     * after the GOODBYE, or lost in a reset, would fail a request this node carried out. Waits for full sockets at most
     * {@value #CLOSE_WRITE_MS} ms in all.
     */
    private void shutdown() {
        long untilNs = System.nanoTime() + CLOSE_WRITE_MS * 1_000_000;
        try {
            writeAtClose(untilNs);
            for (NetQueuePair queuePair : fabric.queuePairArray()) {
                if (queuePair instanceof NetRcQueuePair rc) {
                    Responder.acknowledgePlaced(rc);
                }
            }
            writeAtClose(untilNs);
            for (Connection connection : connections) {
                connection.writer.appendGoodbye();
            }
            writeAtClose(untilNs);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "fabric node {0}: writing at close failed: {1}", nodeName(), e);
        }
        for (Connection connection : connections) {
            connection.discardInput();
            connection.close();
        }
        connections.clear();
        closeQuietly(listener);
        closeQuietly(datagrams);
        closeQuietly(selector);
    }

    /** Writes every ready connection's buffered frames, waiting for sockets that are full until {@code untilNs}. */
    private void writeAtClose(long untilNs) {
        while (true) {
            boolean pending = false;
            for (Connection connection : connections) {
                if (connection.isReady()) {
                    connection.writer.flushAtClose(System.nanoTime());
                    pending |= connection.isReady() && connection.writer.hasOutput();
                }
            }
            if (!pending || System.nanoTime() - untilNs >= 0) {
                return;
            }
            LockSupport.parkNanos(CLOSE_WRITE_PAUSE_NS); // the peer reads; its progress thread needs the core
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // best effort at close
        }
    }
}
