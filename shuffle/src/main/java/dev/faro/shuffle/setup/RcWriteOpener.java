package dev.faro.shuffle.setup;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.endpoint.write.RcWriteReceiveEndpoint;
import dev.faro.shuffle.endpoint.write.RcWriteSendEndpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens one node's endpoints of RDMA WRITE over RC (SEMQ/WR, MEMQ/WR, in the configured
 * {@link dev.faro.shuffle.endpoint.write.WriteCompletionMode}): send endpoints publish their FreeArr rings' key and
 * their credit words' key; receive endpoints publish their buffers' key (senders WRITE with it) and, in poll-MQ
 * mode, their ValidArr rings' key. Once every node is connected, receivers announce their buffers (and post their
 * first receives and credit in poll-CQ mode).
 */
final class RcWriteOpener {

    private RcWriteOpener() {}

    static NodeEndpoints open(
            Fabric fabric,
            PeerExchange exchange,
            String shuffleName,
            EndpointConfig config,
            TransmissionGroups groups) {
        int nodes = exchange.nodes();
        int self = exchange.nodeIndex();
        List<RcWriteSendEndpoint> senders = new ArrayList<>();
        List<RcWriteReceiveEndpoint> receivers = new ArrayList<>();
        try {
            List<RcPeerWiring.Offer> senderOffers = new ArrayList<>();
            List<RcPeerWiring.Offer> receiverOffers = new ArrayList<>();
            for (int i = 0; i < config.endpointsPerNode(); i++) {
                int id = EndpointFactory.endpointId(self, i);
                RcWriteSendEndpoint sender = new RcWriteSendEndpoint(fabric, id, nodes, self, config);
                senders.add(sender);
                RcWriteReceiveEndpoint receiver =
                        new RcWriteReceiveEndpoint(fabric, id, nodes, self, groups.receives(self), config);
                receivers.add(receiver);
                senderOffers.add(
                        RcPeerWiring.Offer.of(sender::address, nodes, sender.freeRingKey(), sender.creditKey()));
                receiverOffers.add(
                        RcPeerWiring.Offer.of(receiver::address, nodes, receiver.bufferKey(), receiver.validRingKey()));
            }
            RcPeerWiring.exchange(
                    fabric,
                    exchange,
                    shuffleName + "/rc-write/addresses",
                    senderOffers,
                    receiverOffers,
                    (i, peer, peerSender, peerReceiver) -> {
                        receivers.get(i).connect(peer, peerSender.address(), peerSender.key(0), peerSender.key(1));
                        senders.get(i).connect(peer, peerReceiver.address(), peerReceiver.key(0), peerReceiver.key(1));
                    });
            exchange.allGather(shuffleName + "/rc-write/connected", new byte[0]);
            receivers.forEach(RcWriteReceiveEndpoint::start);
            return new NodeEndpoints(List.<SendEndpoint>copyOf(senders), List.<ReceiveEndpoint>copyOf(receivers));
        } catch (RuntimeException e) {
            RcPeerWiring.closeAfterFailure(senders, receivers, e);
            throw e;
        }
    }
}
