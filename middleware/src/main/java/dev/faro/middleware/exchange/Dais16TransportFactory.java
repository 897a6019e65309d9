package dev.faro.middleware.exchange;

import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.TransportFactory;
import dev.faro.shuffle.transport.TransportNode;
import java.util.List;

/**
 * Registers {@value Dais16Transport#NAME} (the middleware on the fabric) and {@value Dais16Transport#NIO_NAME} (the
 * same API over the paper's NIO sockets baseline) with the exchange transport registry ({@code ServiceLoader}): each
 * query gets a {@link Dais16Transport} over the node's one {@link NodeMiddleware} of that backend, kept in
 * {@link TransportNode#shared} for the node's lifetime. Stateless.
 */
public final class Dais16TransportFactory implements TransportFactory {

    @Override
    public List<String> names() {
        return List.of(Dais16Transport.NAME, Dais16Transport.NIO_NAME);
    }

    @Override
    public List<String> aliases(String name) {
        return name.equals(Dais16Transport.NAME) ? List.of("middleware") : List.of("dais16-nio");
    }

    @Override
    public ExchangeTransport create(String name, TransportNode node) {
        NodeMiddleware.Backend backend = switch (name) {
            case Dais16Transport.NAME -> NodeMiddleware.Backend.FABRIC;
            case Dais16Transport.NIO_NAME -> NodeMiddleware.Backend.NIO;
            default -> throw new IllegalArgumentException("not a DAIS16 transport: " + name);
        };
        NodeMiddleware middleware = node.shared(
                "dais16.middleware." + backend, NodeMiddleware.class, () -> new NodeMiddleware(node.fabric(), backend));
        return new Dais16Transport(name, middleware, node.peers(), node.stallTimeout(), node.progress());
    }
}
