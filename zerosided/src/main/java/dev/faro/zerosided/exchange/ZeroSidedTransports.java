package dev.faro.zerosided.exchange;

import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.TransportFactory;
import dev.faro.shuffle.transport.TransportNode;
import java.util.List;

/**
 * Registers the transport {@value ZeroSidedTransport#NAME} with {@link java.util.ServiceLoader}. Each query gets a
 * {@link ZeroSidedTransport} over its peers; the switch and NICs belong to each exchange (see the transport), and the
 * node keeps only its packet links ({@link LinkPool}, a {@link TransportNode#shared} object). Stateless.
 */
public final class ZeroSidedTransports implements TransportFactory {

    @Override
    public List<String> names() {
        return List.of(ZeroSidedTransport.NAME);
    }

    @Override
    public List<String> aliases(String name) {
        return List.of("zero-sided", "SIGMOD24");
    }

    @Override
    public ExchangeTransport create(String name, TransportNode node) {
        if (!name.equals(ZeroSidedTransport.NAME)) {
            throw new IllegalArgumentException("not a transport of this factory: " + name);
        }
        LinkPool links = node.shared(LinkPool.KEY, LinkPool.class, LinkPool::new);
        return new ZeroSidedTransport(links, node.peers(), node.stallTimeout(), node.progress());
    }
}
