package dev.faro.shuffle.setup;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.buffer.BufferPool;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.twosided.RcTwoSidedReceiveEndpoint;
import dev.faro.shuffle.endpoint.twosided.RcTwoSidedSendEndpoint;
import dev.faro.shuffle.endpoint.twosided.UdTwoSidedReceiveEndpoint;
import dev.faro.shuffle.endpoint.twosided.UdTwoSidedSendEndpoint;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Opens one node's endpoints of the Send/Receive designs: over RC (SEMQ/SR, MEMQ/SR) and over UD (SESQ/SR,
 * MESQ/SR). Both draw their buffers from one pool per node and shuffle, and both grant the first credits only after
 * every node is connected.
 */
final class TwoSidedOpener {

    private TwoSidedOpener() {}

    static NodeEndpoints openRc(
            Fabric fabric,
            PeerExchange exchange,
            String shuffleName,
            EndpointConfig config,
            TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        List<RcTwoSidedSendEndpoint> senders = new ArrayList<>();
        List<RcTwoSidedReceiveEndpoint> receivers = new ArrayList<>();
        BufferPool pool = pool(fabric, config, nodes);
        try {
            List<RcPeerWiring.Offer> senderOffers = new ArrayList<>();
            List<RcPeerWiring.Offer> receiverOffers = new ArrayList<>();
            for (int i = 0; i < config.endpointsPerNode(); i++) {
                int id = EndpointFactory.endpointId(self, i);
                RcTwoSidedSendEndpoint sender = new RcTwoSidedSendEndpoint(fabric, pool, id, nodes, config);
                RcTwoSidedReceiveEndpoint receiver =
                        new RcTwoSidedReceiveEndpoint(fabric, pool, id, nodes, self, groups.receives(self), config);
                senders.add(sender);
                receivers.add(receiver);
                senderOffers.add(RcPeerWiring.Offer.of(sender::address, nodes, sender.creditKey()));
                receiverOffers.add(RcPeerWiring.Offer.of(receiver::address, nodes));
            }
            RcPeerWiring.exchange(
                    fabric,
                    exchange,
                    shuffleName + "/rc-two-sided/addresses",
                    senderOffers,
                    receiverOffers,
                    (i, peer, peerSender, peerReceiver) -> {
                        // the peer's sender i (its queue pair for us)  <->  our receiver i (our queue pair for it)
                        receivers.get(i).connect(peer, peerSender.address(), peerSender.key(0));
                        senders.get(i).connect(peer, peerReceiver.address());
                    });
            exchange.allGather(shuffleName + "/rc-two-sided/connected", new byte[0]);
            receivers.forEach(RcTwoSidedReceiveEndpoint::start);
            return new NodeEndpoints(
                    List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers), List.of(pool));
        } catch (RuntimeException e) {
            RcPeerWiring.closeAfterFailure(senders, receivers, e, pool);
            throw e;
        }
    }

    static NodeEndpoints openUd(
            Fabric fabric,
            PeerExchange exchange,
            String shuffleName,
            EndpointConfig config,
            TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        List<UdTwoSidedSendEndpoint> senders = new ArrayList<>();
        List<UdTwoSidedReceiveEndpoint> receivers = new ArrayList<>();
        BufferPool pool = pool(fabric, config, nodes);
        try {
            List<RcPeerWiring.Offer> senderOffers = new ArrayList<>();
            List<RcPeerWiring.Offer> receiverOffers = new ArrayList<>();
            for (int i = 0; i < config.endpointsPerNode(); i++) {
                int id = EndpointFactory.endpointId(self, i);
                UdTwoSidedSendEndpoint sender = new UdTwoSidedSendEndpoint(fabric, pool, id, nodes, config);
                UdTwoSidedReceiveEndpoint receiver =
                        new UdTwoSidedReceiveEndpoint(fabric, pool, id, nodes, self, groups.receives(self), config);
                senders.add(sender);
                receivers.add(receiver);
                // per node: the RC credit queue pairs; common: the receiver's one UD queue pair
                senderOffers.add(RcPeerWiring.Offer.of(sender::creditAddress, nodes, sender.creditKey()));
                receiverOffers.add(
                        RcPeerWiring.Offer.of(receiver::creditAddress, nodes).withCommon(receiver.address()));
            }
            RcPeerWiring.exchange(
                    fabric,
                    exchange,
                    shuffleName + "/ud-two-sided/addresses",
                    senderOffers,
                    receiverOffers,
                    (i, peer, peerSender, peerReceiver) -> {
                        senders.get(i).connect(peer, peerReceiver.common(0), peerReceiver.address());
                        receivers.get(i).connect(peer, peerSender.address(), peerSender.key(0));
                    });
            exchange.allGather(shuffleName + "/ud-two-sided/connected", new byte[0]);
            receivers.forEach(UdTwoSidedReceiveEndpoint::start);
            return new NodeEndpoints(
                    List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers), List.of(pool));
        } catch (RuntimeException e) {
            RcPeerWiring.closeAfterFailure(senders, receivers, e, pool);
            throw e;
        }
    }

    /**
     * The pool for a two-sided shuffle on this node: room for every endpoint on both sides to reach the policy's
     * maximum, registered in regions of one endpoint's initial share.
     */
    private static BufferPool pool(Fabric fabric, EndpointConfig config, int nodes) {
        int endpoints = 2 * config.endpointsPerNode();
        int perEndpointMaximum = config.bufferPolicy().maximumPerPeer() * nodes;
        return new BufferPool(
                fabric,
                config.bufferBytes(),
                config.bufferPolicy().initialPerPeer() * nodes,
                endpoints * perEndpointMaximum,
                EnumSet.of(Access.LOCAL_WRITE));
    }
}
