package dev.faro.shuffle.transport;

import dev.faro.shuffle.baseline.TcpShuffleConfig;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.setup.EndpointSets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The transports of this module: the eight TODS19 designs over the node's fabric ({@link DesignTransport}, named by
 * their paper names) and the TCP socket baseline ({@link TcpSocketTransport}, {@value #TCP}, also {@code tcp}).
 */
public final class BuiltInTransports implements TransportFactory {

    /** The TCP socket baseline's name. */
    public static final String TCP = "TCP sockets";

    /** The key of the node's {@link EndpointSets} among its {@link TransportNode#shared} objects. */
    public static final String ENDPOINT_SETS = "shuffle.endpoint-sets";

    @Override
    public List<String> names() {
        List<String> names = new ArrayList<>();
        Arrays.stream(EndpointDesign.values()).map(EndpointDesign::paperName).forEach(names::add);
        names.add(TCP);
        return names;
    }

    @Override
    public List<String> aliases(String name) {
        return name.equals(TCP) ? List.of("tcp") : List.of();
    }

    @Override
    public ExchangeTransport create(String name, TransportNode node) {
        if (name.equals(TCP)) {
            return new TcpSocketTransport(
                    node.peers(),
                    node.secret(),
                    threads -> TcpShuffleConfig.perThread(threads)
                            .withStallTimeout(node.stallTimeout())
                            .withProgress(node.progress()));
        }
        EndpointDesign design = EndpointDesign.parse(name);
        return new DesignTransport(
                node.fabric(),
                node.peers(),
                design,
                threads -> EndpointConfig.defaults(design, threads)
                        .withStallTimeout(node.stallTimeout())
                        .withProgress(node.progress()),
                node.shared(ENDPOINT_SETS, EndpointSets.class, EndpointSets::new));
    }
}
