package dev.faro.shuffle.baseline;

import dev.faro.fabric.FaroException;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import dev.faro.shuffle.setup.PeerExchange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens one node's endpoints of the TCP socket baseline, the same way {@link EndpointFactory} opens the RDMA
 * designs: every receive endpoint listens on a loopback port, the ports go round through the {@link PeerExchange},
 * send endpoint {@code i} connects to receive endpoint {@code i} of every node (itself included), receive endpoints
 * accept, and a last exchange makes sure every node is connected before any data moves. Every node calls
 * {@link #open} with the same name and configuration. Coordination code.
 */
public final class TcpShuffleOpener {

    private TcpShuffleOpener() {}

    /**
     * Opens the endpoints; the result plugs into {@link dev.faro.shuffle.operator.ShuffleSink} and
     * {@link dev.faro.shuffle.operator.ReceiveSource} like any design's.
     *
     * @throws FaroException {@code NETWORK} or {@code TIMEOUT} if a node cannot be reached
     */
    public static NodeEndpoints open(PeerExchange exchange, String shuffleName, TcpShuffleConfig config,
            TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        if (groups.nodes() != nodes) {
            throw new IllegalArgumentException("groups cover " + groups.nodes() + " nodes but the exchange has "
                    + nodes);
        }
        int endpoints = config.endpointsPerNode();
        List<TcpReceiveEndpoint> receivers = new ArrayList<>();
        List<TcpSendEndpoint> senders = new ArrayList<>();
        try {
            ByteBuffer ports = ByteBuffer.allocate(4 * endpoints);
            for (int i = 0; i < endpoints; i++) {
                TcpReceiveEndpoint receiver = new TcpReceiveEndpoint(
                        EndpointFactory.endpointId(self, i), nodes, groups.receives(self), config);
                receivers.add(receiver);
                ports.putInt(receiver.port());
            }
            byte[][] all = exchange.allGather(shuffleName + "/tcp/ports", ports.array());
            for (int i = 0; i < endpoints; i++) {
                int[] peerPorts = new int[nodes];
                for (int node = 0; node < nodes; node++) {
                    peerPorts[node] = ByteBuffer.wrap(all[node]).getInt(4 * i);
                }
                senders.add(new TcpSendEndpoint(EndpointFactory.endpointId(self, i), peerPorts, config));
            }
            for (TcpReceiveEndpoint receiver : receivers) {
                receiver.accept(nodes);
            }
            exchange.allGather(shuffleName + "/tcp/connected", new byte[0]);
            return new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers));
        } catch (RuntimeException e) {
            try {
                new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers))
                        .close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
