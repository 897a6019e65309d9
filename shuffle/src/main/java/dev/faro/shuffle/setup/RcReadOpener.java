package dev.faro.shuffle.setup;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.read.RcReadReceiveEndpoint;
import dev.faro.shuffle.endpoint.read.RcReadSendEndpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens one node's endpoints of RDMA READ over RC (SEMQ/RD, MEMQ/RD): send endpoints publish their buffer key
 * (receivers READ with it) and their FreeArr rings' key; receive endpoints publish their ValidArr rings' key. No
 * first credit: a sender may announce buffers as soon as every node is connected.
 */
final class RcReadOpener {

    private RcReadOpener() {}

    static NodeEndpoints open(
            Fabric fabric,
            PeerExchange exchange,
            String shuffleName,
            EndpointConfig config,
            TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        List<RcReadSendEndpoint> senders = new ArrayList<>();
        List<RcReadReceiveEndpoint> receivers = new ArrayList<>();
        try {
            List<RcPeerWiring.Offer> senderOffers = new ArrayList<>();
            List<RcPeerWiring.Offer> receiverOffers = new ArrayList<>();
            for (int i = 0; i < config.endpointsPerNode(); i++) {
                int id = EndpointFactory.endpointId(self, i);
                RcReadSendEndpoint sender = new RcReadSendEndpoint(fabric, id, nodes, self, config);
                senders.add(sender);
                RcReadReceiveEndpoint receiver =
                        new RcReadReceiveEndpoint(fabric, id, nodes, self, groups.receives(self), config);
                receivers.add(receiver);
                senderOffers.add(
                        RcPeerWiring.Offer.of(sender::address, nodes, sender.bufferKey(), sender.freeRingKey()));
                receiverOffers.add(RcPeerWiring.Offer.of(receiver::address, nodes, receiver.validRingKey()));
            }
            RcPeerWiring.exchange(
                    fabric,
                    exchange,
                    shuffleName + "/rc-read/addresses",
                    senderOffers,
                    receiverOffers,
                    (i, peer, peerSender, peerReceiver) -> {
                        receivers.get(i).connect(peer, peerSender.address(), peerSender.key(0), peerSender.key(1));
                        senders.get(i).connect(peer, peerReceiver.address(), peerReceiver.key(0));
                    });
            exchange.allGather(shuffleName + "/rc-read/connected", new byte[0]);
            return new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers));
        } catch (RuntimeException e) {
            RcPeerWiring.closeAfterFailure(senders, receivers, e);
            throw e;
        }
    }
}
