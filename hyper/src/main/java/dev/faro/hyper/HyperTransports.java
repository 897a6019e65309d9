package dev.faro.hyper;

import dev.faro.shuffle.transport.ExchangeTransport;
import dev.faro.shuffle.transport.ExchangeTransports;
import dev.faro.shuffle.transport.TransportFactory;
import dev.faro.shuffle.transport.TransportNode;
import java.util.List;

/**
 * Registers the transport {@value HyperTransport#NAME} with {@link java.util.ServiceLoader}: each query gets a
 * {@link HyperTransport} over the node's {@link Multiplexer}, which the first query at the node starts (as a
 * {@link TransportNode#shared} object, so it lives until the worker stops) with {@link HyperConfig#defaults()}. Also
 * the baseline VLDB16 argues against, the classic exchange {@value ClassicTransport#NAME} ({@link ClassicTransport}
 * over {@value ClassicTransport#INNER}). Stateless.
 */
public final class HyperTransports implements TransportFactory {

    /** The key of the node's multiplexer among the node's shared objects. */
    static final String MULTIPLEXER_KEY = "hyper/multiplexer";

    @Override
    public List<String> names() {
        return List.of(HyperTransport.NAME, ClassicTransport.NAME);
    }

    @Override
    public int unitsPerNode(String name, int threads) {
        return name.equals(ClassicTransport.NAME) ? threads : 1;
    }

    @Override
    public ExchangeTransport create(String name, TransportNode node) {
        if (name.equals(ClassicTransport.NAME)) {
            return new ClassicTransport(ExchangeTransports.create(ClassicTransport.INNER, node));
        }
        if (!name.equals(HyperTransport.NAME)) {
            throw new IllegalArgumentException("not a transport of this factory: " + name);
        }
        int self = node.peers().nodeIndex();
        int nodes = node.peers().nodes();
        Multiplexer multiplexer = node.shared(
                MULTIPLEXER_KEY,
                Multiplexer.class,
                () -> new Multiplexer(node.fabric(), self, nodes, HyperConfig.defaults()));
        return new HyperTransport(multiplexer, node.peers(), node.stallTimeout(), node.progress());
    }
}
