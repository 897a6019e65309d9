package dev.faro.fabric.net;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricProvider;

/**
 * The {@code net} provider: fabric nodes on several hosts without RDMA NICs. A progress thread per node plays the
 * NIC: RC queue pairs run over TCP, UD queue pairs over real UDP datagrams (see this package's documentation).
 *
 * <p>Options ({@link FabricConfig#options()}):
 * <ul>
 *   <li>{@value #BIND_OPTION}: the address to listen on, TCP and UDP (default {@code 127.0.0.1}: loopback only);</li>
 *   <li>{@value #PORT_OPTION}: the TCP port (default 0, ephemeral); UDP takes the same number when it is free;</li>
 *   <li>{@value #ADVERTISE_OPTION}: the address peers use to reach this node, required when binding to a wildcard
 *       address (default: the bind address);</li>
 *   <li>{@value #SECRET_OPTION}: the shared secret every node of a cluster must know (UTF-8 text). Without it the
 *       environment variable {@value #SECRET_ENVIRONMENT} is used, and without that a random secret generated once
 *       per JVM, so nodes in one process can talk, nodes in others cannot;</li>
 *   <li>{@value #IDLE_OPTION}: {@code backoff} (default: spin, yield, then sleep in the selector) or {@code spin}
 *       (the progress thread never sleeps; for benchmarks on otherwise idle cores).</li>
 * </ul>
 */
public final class NetFabricProvider implements FabricProvider {

    public static final String NAME = "net";
    public static final String BIND_OPTION = "net.bind";
    public static final String PORT_OPTION = "net.port";
    public static final String ADVERTISE_OPTION = "net.advertise";
    public static final String SECRET_OPTION = "net.secret";
    public static final String SECRET_ENVIRONMENT = "FARO_NET_SECRET";
    public static final String IDLE_OPTION = "net.idle";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "several hosts: RC over TCP, UD over UDP, a progress thread per node as the NIC";
    }

    @Override
    public Fabric open(FabricConfig config) {
        return NetFabric.open(config);
    }
}
