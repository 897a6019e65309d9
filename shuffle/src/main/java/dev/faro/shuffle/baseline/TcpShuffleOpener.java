package dev.faro.shuffle.baseline;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.fabric.auth.SharedSecret;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.setup.EndpointFactory;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Opens one node's endpoints of the TCP socket baseline, the same way {@link EndpointFactory} opens the RDMA
 * designs: every receive endpoint listens on a loopback port and draws an exchange token, ports and tokens go round
 * through the {@link PeerExchange}, receive endpoints start accepting (one thread each), send endpoint {@code i}
 * connects to receive endpoint {@code i} of every node (itself included) and authenticates with the cluster secret
 * ({@link TcpHandshake}), and a last exchange makes sure every node is connected before any data moves. Every node
 * calls {@link #open} with the same name, configuration and secret. Coordination code.
 */
public final class TcpShuffleOpener {

    private static final int PORT_ENTRY_BYTES = 4 + TcpHandshake.TOKEN_LENGTH;

    private TcpShuffleOpener() {}

    /**
     * Opens the endpoints; the result plugs into {@link dev.faro.shuffle.operator.ShuffleSink} and
     * {@link dev.faro.shuffle.operator.ReceiveSource} like any design's.
     *
     * @param shuffleName the exchange's name, unique per exchange of a query (connections for another are refused)
     * @param secret the cluster's secret: a connection whose peer cannot prove it is refused
     * @throws FaroException {@code NETWORK} or {@code TIMEOUT} if a node cannot be reached or authenticated
     */
    public static NodeEndpoints open(
            PeerExchange exchange,
            String shuffleName,
            TcpShuffleConfig config,
            TransmissionGroups groups,
            SharedSecret secret) {
        if (secret == null) {
            throw new IllegalArgumentException(
                    "no secret: the TCP shuffle authenticates its connections with the" + " cluster secret");
        }
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        if (groups.nodes() != nodes) {
            throw new IllegalArgumentException(
                    "groups cover " + groups.nodes() + " nodes but the exchange has " + nodes);
        }
        ChallengeResponse proofs = new ChallengeResponse(secret, TcpHandshake.PROTOCOL);
        int endpoints = config.endpointsPerNode();
        List<TcpReceiveEndpoint> receivers = new ArrayList<>();
        List<TcpSendEndpoint> senders = new ArrayList<>();
        try {
            ByteBuffer ports = ByteBuffer.allocate(PORT_ENTRY_BYTES * endpoints);
            for (int i = 0; i < endpoints; i++) {
                TcpReceiveEndpoint receiver = new TcpReceiveEndpoint(
                        EndpointFactory.endpointId(self, i), nodes, groups.receives(self), config, proofs, shuffleName);
                receivers.add(receiver);
                ports.putInt(receiver.port()).put(receiver.token());
            }
            byte[][] all = exchange.allGather(shuffleName + "/tcp/ports", ports.array());
            connect(all, nodes, self, shuffleName, config, proofs, receivers, senders);
            exchange.allGather(shuffleName + "/tcp/connected", new byte[0]);
            return new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers));
        } catch (RuntimeException e) {
            try {
                new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers)).close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Accepts on every receive endpoint (each on a thread of its own) while this thread connects the send endpoints:
     * a sender's handshake needs the peer's receiver to be accepting, and every node does the same at once.
     */
    private static void connect(
            byte[][] all,
            int nodes,
            int self,
            String shuffleName,
            TcpShuffleConfig config,
            ChallengeResponse proofs,
            List<TcpReceiveEndpoint> receivers,
            List<TcpSendEndpoint> senders) {
        try (ExecutorService accepting = Executors.newThreadPerTaskExecutor(Thread.ofPlatform()
                .daemon()
                .name(shuffleName + "-tcp-accept-", 0)
                .factory())) {
            List<Future<?>> accepts = new ArrayList<>();
            for (TcpReceiveEndpoint receiver : receivers) {
                accepts.add(accepting.submit(() -> receiver.accept(nodes)));
            }
            try {
                for (int i = 0; i < receivers.size(); i++) {
                    int[] peerPorts = new int[nodes];
                    byte[][] tokens = new byte[nodes][TcpHandshake.TOKEN_LENGTH];
                    for (int node = 0; node < nodes; node++) {
                        ByteBuffer entry = ByteBuffer.wrap(all[node], PORT_ENTRY_BYTES * i, PORT_ENTRY_BYTES);
                        peerPorts[node] = entry.getInt();
                        entry.get(tokens[node]);
                    }
                    senders.add(new TcpSendEndpoint(
                            EndpointFactory.endpointId(self, i), peerPorts, tokens, config, proofs, shuffleName));
                }
                for (Future<?> accept : accepts) {
                    await(accept);
                }
            } catch (RuntimeException e) {
                for (TcpReceiveEndpoint receiver : receivers) {
                    receiver.abortAccept();
                }
                throw e;
            }
        }
    }

    private static void await(Future<?> accept) {
        try {
            accept.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "accepting TCP shuffle connections failed: " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FaroException(
                    FaroException.Category.NETWORK, "interrupted while accepting TCP shuffle" + " connections", e);
        }
    }
}
