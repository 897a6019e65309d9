package dev.faro.shuffle.setup;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.TransmissionGroups;

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

    public static NodeEndpoints open(
            Fabric fabric,
            PeerExchange exchange,
            String shuffleName,
            EndpointConfig config,
            TransmissionGroups groups) {
        if (groups.nodes() != exchange.nodes()) {
            throw new IllegalArgumentException(
                    "groups cover " + groups.nodes() + " nodes but the exchange has " + exchange.nodes());
        }
        if (config.bufferPolicy().isAdaptive()
                && !config.design().implementation().supportsAdaptiveBuffers()) {
            throw new FaroException(
                    FaroException.Category.NOT_SUPPORTED,
                    "adaptive buffer management is"
                            + " implemented for the Send/Receive designs (SESQ/SR, MESQ/SR, SEMQ/SR, MEMQ/SR); "
                            + config.design().paperName() + " takes a fixed or bandwidth-delay depth");
        }
        return switch (config.design().implementation()) {
            case RC_TWO_SIDED -> TwoSidedOpener.openRc(fabric, exchange, shuffleName, config, groups);
            case UD_TWO_SIDED -> TwoSidedOpener.openUd(fabric, exchange, shuffleName, config, groups);
            case RC_READ -> RcReadOpener.open(fabric, exchange, shuffleName, config, groups);
            case RC_WRITE -> RcWriteOpener.open(fabric, exchange, shuffleName, config, groups);
        };
    }

    /**
     * Whether {@link #open} can build {@code design} on a fabric that offers what it needs; all eight designs are
     * implemented (the UD ones fail at open on a fabric without UD, with a message naming the RC designs).
     */
    public static boolean isImplemented(EndpointDesign design) {
        return switch (design.implementation()) {
            case RC_TWO_SIDED -> true;
            case UD_TWO_SIDED -> true;
            case RC_READ -> true;
            case RC_WRITE -> true;
        };
    }

    /** A unique endpoint id: node in the high bits, endpoint index in the low 16. */
    public static int endpointId(int node, int index) {
        return node << 16 | index;
    }
}
