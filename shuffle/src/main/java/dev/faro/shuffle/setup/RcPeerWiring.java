package dev.faro.shuffle.setup;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The open-time exchange of the designs: every node publishes, for each of its endpoint pairs (send endpoint
 * {@code i}, receive endpoint {@code i}), the address of each endpoint's RC queue pair for every node, the addresses
 * that are the same for every node (a UD queue pair), and the remote keys each endpoint lends; after one
 * {@link PeerExchange#allGather}, local endpoint {@code i} is connected to peer endpoint {@code i} of every node
 * (itself included), with the peer's addresses and keys imported.
 *
 * <p>Coordination code: runs once per shuffle and node.
 */
final class RcPeerWiring {

    /**
     * What one local endpoint publishes: its queue pair address for each node, addresses common to all nodes, and
     * its keys (null for none).
     */
    record Offer(List<QueuePairAddress> addresses, List<QueuePairAddress> common, List<RemoteKey> keys) {
        Offer {
            addresses = List.copyOf(addresses);
            common = List.copyOf(common);
            keys = Arrays.asList(keys.toArray(RemoteKey[]::new)); // may hold nulls
        }

        static Offer of(IntFunction<QueuePairAddress> addressForNode, int nodes, RemoteKey... keys) {
            List<QueuePairAddress> addresses = new ArrayList<>(nodes);
            for (int node = 0; node < nodes; node++) {
                addresses.add(addressForNode.apply(node));
            }
            return new Offer(addresses, List.of(), Arrays.asList(keys));
        }

        /** This offer plus addresses that are the same for every node. */
        Offer withCommon(QueuePairAddress... shared) {
            return new Offer(addresses, List.of(shared), keys);
        }
    }

    /**
     * What a peer's endpoint published for this node: its queue pair for us, its common addresses and its keys
     * (imported; null for none).
     */
    record Peer(QueuePairAddress address, List<QueuePairAddress> common, List<RemoteKey> keys) {
        RemoteKey key(int index) {
            return keys.get(index);
        }

        QueuePairAddress common(int index) {
            return common.get(index);
        }
    }

    /** Connects local endpoint pair {@code index} to the matching endpoints of node {@code peer}. */
    interface Connector {
        void connect(int index, int peer, Peer peerSender, Peer peerReceiver);
    }

    private RcPeerWiring() {}

    /**
     * Publishes {@code senders.get(i)} and {@code receivers.get(i)} for every {@code i}, gathers every node's, and
     * calls {@code connector} once per local endpoint pair and node.
     */
    static void exchange(
            Fabric fabric,
            PeerExchange exchange,
            String key,
            List<Offer> senders,
            List<Offer> receivers,
            Connector connector) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        if (senders.size() != receivers.size()) {
            throw new IllegalArgumentException(
                    "senders and receivers come in pairs: " + senders.size() + " vs " + receivers.size());
        }
        try {
            byte[][] all = exchange.allGather(key, encode(senders, receivers, nodes));
            for (int peer = 0; peer < nodes; peer++) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[peer]));
                int count = in.readInt();
                if (count != senders.size()) {
                    throw new IllegalStateException("node " + peer + " has " + count + " endpoints per side, this node "
                            + senders.size() + ": every node must open the shuffle with the same configuration");
                }
                for (int i = 0; i < count; i++) {
                    Peer peerSender = decode(fabric, in, nodes, self);
                    Peer peerReceiver = decode(fabric, in, nodes, self);
                    connector.connect(i, peer, peerSender, peerReceiver);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] encode(List<Offer> senders, List<Offer> receivers, int nodes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(senders.size());
            for (int i = 0; i < senders.size(); i++) {
                encode(out, senders.get(i), nodes);
                encode(out, receivers.get(i), nodes);
            }
        }
        return bytes.toByteArray();
    }

    private static void encode(DataOutputStream out, Offer offer, int nodes) throws IOException {
        if (offer.addresses().size() != nodes) {
            throw new IllegalArgumentException(
                    "an offer needs one address per node: " + offer.addresses().size());
        }
        for (QueuePairAddress address : offer.addresses()) {
            writeBytes(out, address.toBytes());
        }
        out.writeInt(offer.common().size());
        for (QueuePairAddress address : offer.common()) {
            writeBytes(out, address.toBytes());
        }
        out.writeInt(offer.keys().size());
        for (RemoteKey key : offer.keys()) {
            writeBytes(out, key == null ? new byte[0] : key.toBytes());
        }
    }

    /** Reads one peer endpoint's offer, keeping only its queue pair for node {@code self}. */
    private static Peer decode(Fabric fabric, DataInputStream in, int nodes, int self) throws IOException {
        QueuePairAddress forUs = null;
        for (int node = 0; node < nodes; node++) {
            byte[] address = readBytes(in);
            if (node == self) {
                forUs = fabric.importAddress(address);
            }
        }
        int commonCount = in.readInt();
        List<QueuePairAddress> common = new ArrayList<>(commonCount);
        for (int c = 0; c < commonCount; c++) {
            common.add(fabric.importAddress(readBytes(in)));
        }
        int keyCount = in.readInt();
        List<RemoteKey> keys = new ArrayList<>(keyCount);
        for (int k = 0; k < keyCount; k++) {
            byte[] key = readBytes(in);
            keys.add(key.length == 0 ? null : fabric.importRemoteKey(key));
        }
        return new Peer(forUs, common, keys);
    }

    /** Closes what an open created before it failed; secondary failures are attached to {@code cause}. */
    static void closeAfterFailure(
            List<? extends SendEndpoint> senders,
            List<? extends ReceiveEndpoint> receivers,
            RuntimeException cause,
            AutoCloseable... resources) {
        try {
            new NodeEndpoints(List.copyOf(senders), List.copyOf(receivers), List.of(resources)).close();
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
