package dev.faro.hyper;

import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeTransport;
import java.util.Objects;

/**
 * The classic (Volcano) exchange that VLDB16 §3.1 argues against, as the exchange transport {@value #NAME}: every
 * thread of every node is a parallel unit with its own partition, its own connections and its own buffers (n·t units,
 * against the n servers of the decoupled exchange, {@link HyperTransport}). An exchange opens one channel of an
 * inner transport per unit of a node ({@value #INNER}: per-thread endpoints and RC queue pairs): channel j carries
 * what goes to unit j of every node, so each producing thread holds an open buffer per destination unit (n·t, as
 * {@link ParallelUnits#classicBuffersPerOperator} counts) and each unit's consuming thread reads its channel alone.
 *
 * <ul>
 *   <li>Repartition: the engine hashes rows into n·t groups ({@link #unitsPerNode}); group g goes to node g / t over
 *       channel g mod t, and only consuming thread g mod t of that node reads it.</li>
 *   <li>Broadcast (a group of every node): every unit receives every row; the producing thread copies each buffer into
 *       every channel. The engine builds one hash table per node from what unit 0 receives, so the other units
 *       release their copies unread: the network carries t copies per node, as a classic exchange's does, but the
 *       t − 1 further hash tables a Volcano engine would build are not built.</li>
 *   <li>Any other group (a gather): unit 0 of each member.</li>
 * </ul>
 *
 * Coordination code; immutable, thread-safe. The channel is {@link ClassicChannel}.
 */
public final class ClassicTransport implements ExchangeTransport {

    /** The transport's name in reports, {@code faro bench tpch --transports} and errors. */
    public static final String NAME = "classic";

    /** The transport each unit's channel is opened over. */
    public static final String INNER = "MEMQ/SR";

    private final ExchangeTransport inner;

    /** @param inner what each unit's channel is opened over */
    public ClassicTransport(ExchangeTransport inner) {
        this.inner = Objects.requireNonNull(inner, "inner is null");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PeerExchange peers() {
        return inner.peers();
    }

    /** Every thread is a unit. */
    @Override
    public int unitsPerNode(int threads) {
        return threads;
    }

    @Override
    public ExchangeChannel open(String exchangeName, TransmissionGroups groups, int threads) {
        Objects.requireNonNull(exchangeName, "exchangeName is null");
        Objects.requireNonNull(groups, "groups is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: threads=" + threads);
        }
        int nodes = nodeCount();
        boolean perUnit = isUnitRepartition(groups, nodes, threads);
        TransmissionGroups channelGroups = perUnit ? TransmissionGroups.repartition(nodes) : groups;
        ExchangeChannel[] units = new ExchangeChannel[threads];
        try {
            for (int unit = 0; unit < threads; unit++) {
                units[unit] = inner.open(exchangeName + "/unit" + unit, channelGroups, threads);
            }
        } catch (RuntimeException e) {
            // the peers' opens failed too: the opened units need not wait for their streams
            ClassicChannel.endEach(units, true, e);
            throw e;
        }
        return new ClassicChannel(units, groups, perUnit);
    }

    /** Whether {@code groups} are the engine's n·t unit groups: group g is node g / t alone. */
    static boolean isUnitRepartition(TransmissionGroups groups, int nodes, int threads) {
        if (groups.groupCount() != nodes * threads) {
            return false;
        }
        for (int group = 0; group < groups.groupCount(); group++) {
            int[] members = groups.members(group);
            if (members.length != 1 || members[0] != group / threads) {
                return false;
            }
        }
        return true;
    }
}
