package dev.faro.shuffle.transport;

import java.util.List;

/**
 * A family of exchange transports that plugs into the engine without touching it: a module that implements one lists
 * its class in {@code META-INF/services/dev.faro.shuffle.transport.TransportFactory}, and {@link ExchangeTransports}
 * then finds it by name (so {@code faro bench tpch --transports NAME} and the engine's tests reach it). Stateless;
 * what must live as long as a node (a multiplexer, a middleware instance) goes in {@link TransportNode#shared}.
 */
public interface TransportFactory {

    /** The transports' names as reports show them, e.g. {@code "MESQ/SR"} or {@code "TCP sockets"}; never empty. */
    List<String> names();

    /**
     * Further names a person may type for {@code name} (one of {@link #names()}), e.g. {@code "tcp"} for
     * {@code "TCP sockets"}; compared as {@link ExchangeTransports#resolve} compares.
     */
    default List<String> aliases(String name) {
        return List.of();
    }

    /**
     * The transport {@code name} for one query at {@code node}. Cheap: called for every query on every node.
     *
     * @param name one of {@link #names()}
     */
    ExchangeTransport create(String name, TransportNode node);

    /**
     * {@link ExchangeTransport#unitsPerNode} of the transport {@code name}, known before any node creates it (a
     * coordinator planning a query asks).
     */
    default int unitsPerNode(String name, int threads) {
        return 1;
    }
}
