package dev.faro.shuffle.setup;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.shuffle.buffer.BufferPool;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.twosided.RcTwoSidedReceiveEndpoint;
import dev.faro.shuffle.endpoint.twosided.RcTwoSidedSendEndpoint;
import dev.faro.shuffle.endpoint.twosided.UdTwoSidedReceiveEndpoint;
import dev.faro.shuffle.endpoint.twosided.UdTwoSidedSendEndpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Opens one node's endpoints of a shuffle (TODS19 OPEN): creates queue pairs and registered memory, swaps addresses
 * and keys with every node through a {@link PeerExchange}, connects, waits until every node is connected, and only
 * then grants the first credits. Every node calls {@link #open} with the same shuffle name and configuration.
 *
 * <p>In ME, send endpoint {@code i} of every node talks to receive endpoint {@code i} of every node (n·t queue pairs
 * per node and side, Table 1); in SE there is one of each.
 */
public final class EndpointFactory {

    private EndpointFactory() {}

    public static NodeEndpoints open(Fabric fabric, PeerExchange exchange, String shuffleName,
            EndpointConfig config, TransmissionGroups groups) {
        if (groups.nodes() != exchange.nodes()) {
            throw new IllegalArgumentException("groups cover " + groups.nodes() + " nodes but the exchange has "
                    + exchange.nodes());
        }
        return switch (config.design().implementation()) {
            case RC_TWO_SIDED -> openRcTwoSided(fabric, exchange, shuffleName, config, groups);
            case UD_TWO_SIDED -> openUdTwoSided(fabric, exchange, shuffleName, config, groups);
            case RC_READ -> RcReadOpener.open(fabric, exchange, shuffleName, config, groups);
            case RC_WRITE -> RcWriteOpener.open(fabric, exchange, shuffleName, config, groups);
        };
    }

    /** Whether {@link #open} can build {@code design} (the others fail with {@code NOT_SUPPORTED}). */
    public static boolean isImplemented(EndpointDesign design) {
        return switch (design.implementation()) {
            case RC_TWO_SIDED -> true;
            case UD_TWO_SIDED -> true;
            case RC_READ -> true;
            case RC_WRITE -> true;
        };
    }

    private static FaroException notImplemented(EndpointConfig config) {
        return new FaroException(FaroException.Category.NOT_SUPPORTED, "design " + config.design().paperName()
                + " is not implemented yet; available: " + java.util.Arrays.stream(EndpointDesign.values())
                        .filter(EndpointFactory::isImplemented).map(EndpointDesign::paperName).toList());
    }

    /** A unique endpoint id: node in the high bits, endpoint index in the low 16. */
    public static int endpointId(int node, int index) {
        return node << 16 | index;
    }

    private static NodeEndpoints openRcTwoSided(Fabric fabric, PeerExchange exchange, String shuffleName,
            EndpointConfig config, TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        int count = config.endpointsPerNode();
        List<RcTwoSidedSendEndpoint> senders = new ArrayList<>();
        List<RcTwoSidedReceiveEndpoint> receivers = new ArrayList<>();
        BufferPool pool = twoSidedPool(fabric, config, nodes);
        try {
            for (int i = 0; i < count; i++) {
                senders.add(new RcTwoSidedSendEndpoint(fabric, pool, endpointId(self, i), nodes, config));
                receivers.add(new RcTwoSidedReceiveEndpoint(
                        fabric, pool, endpointId(self, i), nodes, self, groups.receives(self), config));
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                for (int i = 0; i < count; i++) {
                    writeBytes(out, senders.get(i).creditKey());
                    for (int node = 0; node < nodes; node++) {
                        writeBytes(out, senders.get(i).address(node).toBytes());
                        writeBytes(out, receivers.get(i).address(node).toBytes());
                    }
                }
            }
            byte[][] all = exchange.allGather(shuffleName + "/rc-two-sided/addresses", bytes.toByteArray());
            for (int peer = 0; peer < nodes; peer++) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[peer]));
                for (int i = 0; i < count; i++) {
                    byte[] creditKey = readBytes(in);
                    for (int node = 0; node < nodes; node++) {
                        byte[] senderAddress = readBytes(in);
                        byte[] receiverAddress = readBytes(in);
                        if (node != self) {
                            continue; // the peer's queue pairs for other nodes
                        }
                        // the peer's sender i, queue pair for us  <->  our receiver i, queue pair for the peer
                        receivers.get(i).connect(peer, fabric.importAddress(senderAddress),
                                fabric.importRemoteKey(creditKey));
                        senders.get(i).connect(peer, fabric.importAddress(receiverAddress));
                    }
                }
            }
            exchange.allGather(shuffleName + "/rc-two-sided/connected", new byte[0]);
            receivers.forEach(RcTwoSidedReceiveEndpoint::start);
            return new NodeEndpoints(
                    List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers), List.of(pool));
        } catch (IOException e) {
            closeAll(senders, receivers, pool, e);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            closeAll(senders, receivers, pool, e);
            throw e;
        }
    }

    private static NodeEndpoints openUdTwoSided(Fabric fabric, PeerExchange exchange, String shuffleName,
            EndpointConfig config, TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        int count = config.endpointsPerNode();
        List<UdTwoSidedSendEndpoint> senders = new ArrayList<>();
        List<UdTwoSidedReceiveEndpoint> receivers = new ArrayList<>();
        BufferPool pool = twoSidedPool(fabric, config, nodes);
        try {
            for (int i = 0; i < count; i++) {
                senders.add(new UdTwoSidedSendEndpoint(fabric, pool, endpointId(self, i), nodes, config));
                receivers.add(new UdTwoSidedReceiveEndpoint(
                        fabric, pool, endpointId(self, i), nodes, self, groups.receives(self), config));
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                for (int i = 0; i < count; i++) {
                    writeBytes(out, senders.get(i).creditKey());
                    writeBytes(out, receivers.get(i).address().toBytes());
                    for (int node = 0; node < nodes; node++) {
                        writeBytes(out, senders.get(i).creditAddress(node).toBytes());
                        writeBytes(out, receivers.get(i).creditAddress(node).toBytes());
                    }
                }
            }
            byte[][] all = exchange.allGather(shuffleName + "/ud-two-sided/addresses", bytes.toByteArray());
            for (int peer = 0; peer < nodes; peer++) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[peer]));
                for (int i = 0; i < count; i++) {
                    byte[] creditKey = readBytes(in);
                    byte[] receiverAddress = readBytes(in);
                    for (int node = 0; node < nodes; node++) {
                        byte[] senderCreditAddress = readBytes(in);
                        byte[] receiverCreditAddress = readBytes(in);
                        if (node != self) {
                            continue;
                        }
                        senders.get(i).connect(peer, fabric.importAddress(receiverAddress),
                                fabric.importAddress(receiverCreditAddress));
                        receivers.get(i).connect(peer, fabric.importAddress(senderCreditAddress),
                                fabric.importRemoteKey(creditKey));
                    }
                }
            }
            exchange.allGather(shuffleName + "/ud-two-sided/connected", new byte[0]);
            receivers.forEach(UdTwoSidedReceiveEndpoint::start);
            return new NodeEndpoints(
                    List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers), List.of(pool));
        } catch (IOException e) {
            closeAll(senders, receivers, pool, e);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            closeAll(senders, receivers, pool, e);
            throw e;
        }
    }

    /**
     * The node's pool for a two-sided shuffle: room for every endpoint on both sides to reach the policy's maximum,
     * registered in regions of one endpoint's initial share.
     */
    private static BufferPool twoSidedPool(Fabric fabric, EndpointConfig config, int nodes) {
        int endpoints = 2 * config.endpointsPerNode();
        int perEndpointMaximum = config.bufferPolicy().maximumPerPeer() * nodes;
        return new BufferPool(fabric, config.bufferBytes(), config.bufferPolicy().initialPerPeer() * nodes,
                endpoints * perEndpointMaximum, EnumSet.of(Access.LOCAL_WRITE));
    }

    private static void closeAll(List<? extends SendEndpoint> senders, List<? extends ReceiveEndpoint> receivers,
            AutoCloseable pool, Exception cause) {
        try {
            new NodeEndpoints(List.copyOf(senders), List.copyOf(receivers), List.of(pool)).close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        out.writeInt(value.length);
        out.write(value);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        return value;
    }
}
