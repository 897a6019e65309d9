package dev.faro.fabric.net;

import dev.faro.fabric.Access;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricCounters;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.spi.AbstractFabric;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * One node of the {@code net} fabric: a TCP listener and a UDP socket on the bind address, registered memory in plain
 * off-heap segments, and one {@link ProgressAgent} thread that does all socket I/O and data movement.
 *
 * <p>Coordination code; the data path lives in the queue pairs, the completion queues, the connections and the
 * progress agent. Tables the progress thread reads ({@link #regions}, {@link #queuePairs}) are replaced copy-on-write
 * under {@code this}, so its lookups take no lock.
 */
final class NetFabric extends AbstractFabric<NetMemoryRegion, NetCompletionQueue> {

    private static final System.Logger LOG = System.getLogger(NetFabric.class.getName());
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;

    static final FabricCapabilities CAPABILITIES =
            new FabricCapabilities(true, NetUdQueuePair.MTU_BYTES, 1024, 1L << 30, 1 << 16, 1 << 22);

    private final NodeAddress address;
    private final ProgressAgent agent;
    private final NetCounters counters = new NetCounters();

    private volatile IdTable<NetMemoryRegion> regions = IdTable.empty();
    private volatile IdTable<NetQueuePair> queuePairs = IdTable.empty();
    /** The live queue pairs, for the progress thread's scans; copy-on-write with {@link #queuePairs}. */
    private volatile NetQueuePair[] queuePairArray = new NetQueuePair[0];
    /** Regions whose memory is not freed yet (closed ones may wait for their last pin); guarded by {@code this}. */
    private final Set<NetMemoryRegion> unfreed = new java.util.HashSet<>();

    private long receivesMissedByClosedQueuePairs;

    private NetFabric(
            FabricConfig config, NetOptions options, long node, ServerSocketChannel listener, DatagramChannel datagrams)
            throws IOException {
        super(config, node, NetFabricProvider.NAME, CAPABILITIES, NetCompletionQueue.class);
        int tcpPort = ((InetSocketAddress) listener.getLocalAddress()).getPort();
        int udpPort = ((InetSocketAddress) datagrams.getLocalAddress()).getPort();
        this.address = new NodeAddress(options.advertisedAddress(), tcpPort, udpPort);
        this.agent = new ProgressAgent(this, options, listener, datagrams);
    }

    static NetFabric open(FabricConfig config) {
        NetOptions options = NetOptions.of(config);
        long node = newNodeId();
        ServerSocketChannel listener = null;
        DatagramChannel datagrams = null;
        try {
            listener = ServerSocketChannel.open();
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(options.bindAddress(), options.port()), 256);
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            datagrams = openDatagrams(options, port);
            NetFabric fabric = new NetFabric(config, options, node, listener, datagrams);
            fabric.agent.start();
            LOG.log(
                    Level.DEBUG,
                    "fabric node {0} ({1}) listens at {2}; shared secret: {3}",
                    config.nodeName(),
                    Long.toHexString(node),
                    fabric.address,
                    options.secret().origin());
            return fabric;
        } catch (IOException e) {
            closeQuietly(listener);
            closeQuietly(datagrams);
            throw new FaroException(
                    FaroException.Category.IO,
                    "fabric node " + config.nodeName()
                            + " cannot listen on " + options.bindAddress().getHostAddress() + ":" + options.port()
                            + " (options net.bind, net.port): " + e.getMessage(),
                    e);
        }
    }

    /** The UDP socket: the TCP port's number if free, an ephemeral port otherwise; large buffers against bursts. */
    private static DatagramChannel openDatagrams(NetOptions options, int tcpPort) throws IOException {
        DatagramChannel channel = DatagramChannel.open(
                options.bindAddress() instanceof java.net.Inet6Address
                        ? java.net.StandardProtocolFamily.INET6
                        : java.net.StandardProtocolFamily.INET);
        try {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            try {
                channel.bind(new InetSocketAddress(options.bindAddress(), tcpPort));
            } catch (IOException taken) {
                channel.bind(new InetSocketAddress(options.bindAddress(), 0));
            }
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // already failing
            }
        }
    }

    NodeAddress address() {
        return address;
    }

    NetCounters netCounters() {
        return counters;
    }

    @Override
    protected NetMemoryRegion newRegion(int id, int key, long lengthBytes, Set<Access> access) {
        return new NetMemoryRegion(this, id, key, lengthBytes, access);
    }

    @Override
    protected void addRegion(NetMemoryRegion region) {
        regions = regions.with(region.id, region);
        unfreed.add(region);
    }

    @Override
    protected void discardRegion(NetMemoryRegion region) {
        region.forceFree();
    }

    @Override
    protected NetCompletionQueue newCompletionQueue(int id, int capacity) {
        return new NetCompletionQueue(this, id, capacity);
    }

    @Override
    public RcQueuePair createRcQueuePair(QueuePairConfig queuePairConfig) {
        return add(create(queuePairConfig, false));
    }

    @Override
    public UdQueuePair createUdQueuePair(QueuePairConfig queuePairConfig) {
        return add(create(queuePairConfig, true));
    }

    private NetQueuePair create(QueuePairConfig queuePairConfig, boolean datagram) {
        int qpn = attachQueuePair(queuePairConfig);
        return datagram
                ? new NetUdQueuePair(this, qpn, queuePairConfig)
                : new NetRcQueuePair(this, qpn, queuePairConfig);
    }

    @SuppressWarnings("unchecked")
    private synchronized <T> T add(NetQueuePair queuePair) {
        queuePairs = queuePairs.with(queuePair.queuePairNumber(), queuePair);
        NetQueuePair[] grown = Arrays.copyOf(queuePairArray, queuePairArray.length + 1);
        grown[queuePairArray.length] = queuePair;
        queuePairArray = grown;
        return (T) queuePair;
    }

    @Override
    public RemoteKey importRemoteKey(byte[] bytes) {
        return NetRemoteKey.fromBytes(bytes);
    }

    @Override
    public QueuePairAddress importAddress(byte[] bytes) {
        return NetQueuePairAddress.fromBytes(bytes);
    }

    // ========================================================================== what the progress thread reads

    /** The live region with {@code id}, or null. Data path. */
    NetMemoryRegion region(int id) {
        return regions.get(id);
    }

    /** The live queue pair with {@code qpn}, or null. Data path. */
    NetQueuePair queuePair(int qpn) {
        return queuePairs.get(qpn);
    }

    /** The live RC queue pair with {@code qpn}, or null. Data path. */
    NetRcQueuePair rcQueuePair(int qpn) {
        return queuePairs.get(qpn) instanceof NetRcQueuePair rc ? rc : null;
    }

    NetQueuePair[] queuePairArray() {
        return queuePairArray;
    }

    /** See {@link ProgressAgent#deferWake}. */
    boolean deferWake(NetCompletionQueue queue) {
        return agent.deferWake(queue);
    }

    /** A request was posted. Data path. */
    void doorbell() {
        agent.doorbell();
    }

    /** An RC queue pair connected: the progress thread binds it to the peer node (and dials it if need be). */
    void onConnected(NetRcQueuePair queuePair, NetQueuePairAddress peer) {
        agent.execute(() -> agent.nodes.bind(queuePair, peer));
    }

    /** TCP peers and datagrams this node refused for not proving the shared secret (for tests and diagnostics). */
    long authenticationFailures() {
        return counters.authenticationFailures();
    }

    // =============================================================================================== life cycle

    synchronized void forget(NetMemoryRegion region) {
        regions = regions.without(region.id);
    }

    /** The region's memory was freed. */
    synchronized void freed(NetMemoryRegion region) {
        unfreed.remove(region);
    }

    void forget(NetQueuePair queuePair) {
        synchronized (this) {
            if (queuePair instanceof NetUdQueuePair datagram) {
                receivesMissedByClosedQueuePairs += datagram.receivesMissedAtClose;
            }
            queuePairs = queuePairs.without(queuePair.queuePairNumber());
            queuePairArray =
                    Arrays.stream(queuePairArray).filter(q -> q != queuePair).toArray(NetQueuePair[]::new);
        }
        if (!isClosed()) {
            agent.execute(queuePair::releaseOutstanding);
        }
    }

    @Override
    public FabricCounters counters() {
        long missed;
        synchronized (this) {
            missed = receivesMissedByClosedQueuePairs;
        }
        for (NetQueuePair queuePair : queuePairArray) {
            if (queuePair instanceof NetUdQueuePair datagram) {
                missed += datagram.receivesMissed();
            }
        }
        return new FabricCounters(
                missed,
                counters.faultLosses(),
                counters.faultDuplicates(),
                counters.faultReorders(),
                counters.receiverNotReady(),
                counters.peerFailures(),
                0);
    }

    /** Stops the progress thread, then closes the queue pairs (their outstanding requests are released here). */
    @Override
    protected void shutDown() {
        try {
            agent.stop();
        } finally {
            for (NetQueuePair queuePair : queuePairArray) {
                queuePair.close();
            }
        }
    }

    @Override
    protected void releaseMemory() {
        List<NetMemoryRegion> left;
        synchronized (this) {
            left = List.copyOf(unfreed);
        }
        for (NetMemoryRegion region : left) {
            region.close();
            region.forceFree(); // the progress thread is gone: no pin can be released any more
        }
    }

    @Override
    public String toString() {
        return "NetFabric[" + nodeName() + ", node=" + Long.toHexString(node()) + ", " + address + "]";
    }
}
