package dev.faro.zerosided.exchange;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.ProgressSignal;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.switching.SwitchEndpoint;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * SIGMOD24's zero-sided switch as an exchange transport, {@value #NAME}: producing threads write engine buffers into
 * slots of zero-sided producer buffers and move only the head word; the switch READs the slots and rewrites the
 * responses into WRITEs to the receiving node's consumer buffer, then moves both sides' pointers; receiving threads
 * read the slots in place and move only the tail word. No endpoint thread starts a data movement.
 *
 * <p><b>Exchanges it serves</b> ({@link ExchangeShape}): repartition (and any exchange whose groups are single nodes,
 * such as a gather to node 0) as one key-based shuffle flow, producer buffer (node, thread, group) to the consumer
 * buffer of the group's node; broadcast (one group of several nodes) as one globally ordered replication flow to every
 * member's consumer buffer. A multicast with several groups of several nodes is refused at open with a
 * {@code INVALID_ARGUMENT} error naming it (no plan of the engine makes one).
 *
 * <p><b>Where the switch runs: a thread on node 0, one switch per exchange</b>, created at open and closed with the
 * exchange, with one NIC (and its agent thread) per node and exchange; only the shared-memory packet links outlive the
 * exchange, in the node's {@link LinkPool} (a {@code TransportNode#shared} object), as opening one costs more than an
 * exchange. The paper's switch is separate hardware that every node reaches; here it is a thread of one node reached
 * over shared-memory packet rings by every node, in one JVM or across worker processes alike. Per exchange rather than node-lifetime
 * because the switch and the NICs have fixed-size tables (4,096 endpoints, 1,024 regions) with no removal of an
 * endpoint or a region, and a per-node-lifetime switch would exhaust them after a few hundred exchanges; per
 * exchange, a failed exchange also leaves nothing behind for the next query. The cost is two or three threads per
 * exchange.
 *
 * <p><b>Open</b>, collective, two gathers over the query's {@link PeerExchange}: every node allocates and registers
 * its buffers and publishes them (port, queue pair, key, address, shape) with a random first PSN, node 0 also its
 * switch's port; node 0 installs every node's buffers in its switch in node order, so every node knows its buffers'
 * queue pairs at the switch, connects them and starts its NIC; after the second gather (every NIC connected) node 0
 * installs the flow and starts the switch. <b>Close</b> adds a third (see {@link ZeroSidedChannel#close}).
 *
 * <p><b>End of stream</b>: a sender's finish sets the end bit of each of its producer buffers' head; once every
 * producer of a consumer buffer has ended and been drained, the switch WRITEs the consumer's head with the end bit, and
 * the node's receivers then return null after the last buffer. <b>Failure</b>: waits fail after the stall timeout
 * without progress anywhere in the query (a dead peer), or at once when this node's NIC agent or the switch stopped
 * or failed a flow; the first error is every thread's.
 *
 * <p>Coordination code; immutable, thread-safe. One instance per query and node.
 */
public final class ZeroSidedTransport implements ExchangeTransport {

    /** The transport's name in reports, {@code faro bench tpch --transports} and errors. */
    public static final String NAME = "zerosided";

    private final LinkPool links;
    private final PeerExchange peers;
    private final Duration stallTimeout;
    private final ProgressSignal progress;

    /**
     * @param links the node's packet links, lent to each exchange
     * @param stallTimeout how long a wait may see no progress anywhere in the query before it fails the exchange
     * @param progress the query's progress signal (or {@link ProgressSignal#NONE})
     */
    ZeroSidedTransport(LinkPool links, PeerExchange peers, Duration stallTimeout, ProgressSignal progress) {
        this.links = Objects.requireNonNull(links, "links is null");
        this.peers = Objects.requireNonNull(peers, "peers is null");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PeerExchange peers() {
        return peers;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        Objects.requireNonNull(exchangeName, "exchangeName is null");
        Objects.requireNonNull(groups, "groups is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        ExchangeShape shape = ExchangeShape.of(groups);
        int self = peers.nodeIndex();
        int nodes = peers.nodes();
        int groupCount = groups.groupCount();
        ExchangeResources resources = new ExchangeResources(
                links, exchangeName + "-n" + self, threads, groupCount, groups.receives(self), self == 0);
        try {
            // 1. every node's buffers and first PSN, and node 0's switch port; the switch's queue pairs are then
            // known everywhere: node 0 installs the buffers node by node, in order, each getting the next one
            int firstPsn = ThreadLocalRandom.current().nextInt(1 << 24);
            int ownSwitchPort = self == 0 ? resources.zeroSidedSwitch().port() : 0;
            byte[][] published = peers.allGather(
                    exchangeName + "/zerosided/endpoints", encode(ownSwitchPort, firstPsn, resources.endpoints()));
            List<List<SwitchEndpoint>> endpoints = new ArrayList<>();
            int[] firstPsns = new int[nodes];
            int[] firstQueuePairs = new int[nodes];
            int queuePairs = 0;
            for (int node = 0; node < nodes; node++) {
                ByteBuffer contribution = ByteBuffer.wrap(published[node]);
                contribution.getInt(); // the switch port: node 0's only
                firstPsns[node] = contribution.getInt();
                endpoints.add(decode(contribution));
                firstQueuePairs[node] = queuePairs;
                queuePairs += endpoints.get(node).size();
            }
            int switchPort = ByteBuffer.wrap(published[0]).getInt();
            if (self == 0) {
                SwitchControl control = resources.zeroSidedSwitch().control();
                for (int node = 0; node < nodes; node++) {
                    for (int i = 0; i < endpoints.get(node).size(); i++) {
                        int queuePair = control.addEndpoint(endpoints.get(node).get(i), firstPsns[node]);
                        if (queuePair != firstQueuePairs[node] + i) {
                            throw new IllegalStateException("the switch numbered buffer " + i + " of node " + node + " "
                                    + queuePair + ", not " + (firstQueuePairs[node] + i));
                        }
                    }
                }
            }
            // 2. every NIC connected before the switch sends anything
            resources.connect(switchPort, firstQueuePairs[self], firstPsn);
            peers.allGather(exchangeName + "/zerosided/connected", new byte[0]);
            if (self == 0) {
                installFlow(resources.zeroSidedSwitch().control(), shape, groups, endpoints, firstQueuePairs);
                resources.startSwitch();
            }
            EndpointFailure failure = new EndpointFailure(NAME + " exchange " + exchangeName);
            return new ZeroSidedChannel(
                    resources,
                    peers,
                    exchangeName,
                    threads,
                    groupCount,
                    failure,
                    new WaitLoop(failure, stallTimeout, progress),
                    stallTimeout,
                    progress);
        } catch (RuntimeException e) {
            try {
                resources.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof FaroException) {
                throw e;
            }
            throw new FaroException(
                    FaroException.Category.NETWORK, NAME + ": opening exchange " + exchangeName + " failed: " + e, e);
        }
    }

    /**
     * Installs the exchange's one flow. Node n's endpoints are its producers by thread then group, then its consumer
     * if it receives; {@code queuePairs} are their indexes in the switch's table.
     */
    private static void installFlow(
            SwitchControl control,
            ExchangeShape shape,
            TransmissionGroups groups,
            List<List<SwitchEndpoint>> endpoints,
            int[] firstQueuePairs) {
        int groupCount = groups.groupCount();
        int[] consumerOf = new int[endpoints.size()];
        List<int[]> producerRows = new ArrayList<>();
        for (int node = 0; node < endpoints.size(); node++) {
            List<SwitchEndpoint> own = endpoints.get(node);
            boolean receives = !own.isEmpty() && !own.getLast().producer();
            consumerOf[node] = receives ? firstQueuePairs[node] + own.size() - 1 : -1;
            int threads = (own.size() - (receives ? 1 : 0)) / groupCount;
            for (int t = 0; t < threads; t++) {
                int[] row = new int[groupCount];
                for (int g = 0; g < groupCount; g++) {
                    row[g] = firstQueuePairs[node] + t * groupCount + g;
                }
                producerRows.add(row);
            }
        }
        if (shape == ExchangeShape.SHUFFLE) {
            int[] consumers = new int[groupCount];
            for (int g = 0; g < groupCount; g++) {
                consumers[g] = consumerOf[groups.members(g)[0]];
            }
            control.installShuffle(producerRows.toArray(int[][]::new), consumers);
        } else {
            int[] members = groups.members(0);
            int[] consumers = new int[members.length];
            for (int i = 0; i < members.length; i++) {
                consumers[i] = consumerOf[members[i]];
            }
            control.installReplication(
                    producerRows.stream().mapToInt(row -> row[0]).toArray(), consumers);
        }
    }

    private static byte[] encode(int switchPort, int firstPsn, List<SwitchEndpoint> endpoints) {
        ByteBuffer bytes = ByteBuffer.allocate(3 * Integer.BYTES + endpoints.size() * 33);
        bytes.putInt(switchPort).putInt(firstPsn).putInt(endpoints.size());
        for (SwitchEndpoint e : endpoints) {
            bytes.putInt(e.port())
                    .putInt(e.queuePair())
                    .putInt(e.remoteKey())
                    .putLong(e.baseAddress())
                    .putInt(e.capacity())
                    .putInt(e.itemBytes())
                    .putInt(e.producer() ? 1 : 0)
                    .put((byte) 0);
        }
        return bytes.array();
    }

    private static List<SwitchEndpoint> decode(ByteBuffer bytes) {
        int count = bytes.getInt();
        List<SwitchEndpoint> endpoints = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int port = bytes.getInt();
            int queuePair = bytes.getInt();
            int remoteKey = bytes.getInt();
            long baseAddress = bytes.getLong();
            int capacity = bytes.getInt();
            int itemBytes = bytes.getInt();
            boolean producer = bytes.getInt() == 1;
            bytes.get();
            endpoints.add(new SwitchEndpoint(port, queuePair, remoteKey, baseAddress, capacity, itemBytes, producer));
        }
        return endpoints;
    }
}
