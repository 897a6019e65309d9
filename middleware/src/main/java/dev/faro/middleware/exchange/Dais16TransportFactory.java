package dev.faro.middleware.exchange;

import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.TransportFactory;
import dev.faro.shuffle.transport.TransportNode;
import java.util.List;

/**
 * Registers {@value Dais16Transport#NAME} with the exchange transport registry ({@code ServiceLoader}): each query gets
 * a {@link Dais16Transport} over the node's one {@link NodeMiddleware}, kept in {@link TransportNode#shared} for the
 * node's lifetime. Stateless.
 */
public final class Dais16TransportFactory implements TransportFactory {

    /** The key of the node's middleware among its shared objects. */
    static final String SHARED_KEY = "dais16.middleware";

    @Override
    public List<String> names() {
        return List.of(Dais16Transport.NAME);
    }

    @Override
    public List<String> aliases(String name) {
        return List.of("middleware");
    }

    @Override
    public ExchangeTransport create(String name, TransportNode node) {
        if (!name.equals(Dais16Transport.NAME)) {
            throw new IllegalArgumentException("not a DAIS16 transport: " + name);
        }
        NodeMiddleware middleware =
                node.shared(SHARED_KEY, NodeMiddleware.class, () -> new NodeMiddleware(node.fabric()));
        return new Dais16Transport(middleware, node.peers(), node.stallTimeout(), node.progress());
    }
}
