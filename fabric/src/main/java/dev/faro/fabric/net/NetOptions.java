package dev.faro.fabric.net;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.SharedSecret;
import java.net.InetAddress;

/**
 * The {@code net.*} options of a node, parsed and validated once at open (see {@link NetFabricProvider}).
 *
 * @param bindAddress where the node listens (TCP and UDP)
 * @param port the TCP port asked for (0: ephemeral)
 * @param advertisedAddress the address written into this node's queue-pair addresses and keys
 * @param secret the shared secret
 * @param busySpin whether the progress thread never sleeps
 */
record NetOptions(
        InetAddress bindAddress, int port, InetAddress advertisedAddress, SharedSecret secret, boolean busySpin) {

    static NetOptions of(FabricConfig config) {
        InetAddress bind =
                address(config.option(NetFabricProvider.BIND_OPTION, "127.0.0.1"), NetFabricProvider.BIND_OPTION);
        String portText = config.option(NetFabricProvider.PORT_OPTION, "0");
        int port;
        try {
            port = Integer.parseInt(portText.strip());
        } catch (NumberFormatException e) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    NetFabricProvider.PORT_OPTION + " must be a port number: '" + portText + "'");
        }
        FaroException.checkArgument(port >= 0 && port <= 65535, "net.port must be within [0, 65535]: %d", port);
        String advertiseText = config.options().get(NetFabricProvider.ADVERTISE_OPTION);
        InetAddress advertised =
                advertiseText == null ? bind : address(advertiseText, NetFabricProvider.ADVERTISE_OPTION);
        if (advertised.isAnyLocalAddress()) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "node " + config.nodeName()
                            + " binds to the wildcard address " + bind.getHostAddress() + ": set "
                            + NetFabricProvider.ADVERTISE_OPTION + " to the address peers should use");
        }
        String idle = config.option(NetFabricProvider.IDLE_OPTION, "backoff");
        FaroException.checkArgument(
                idle.equals("backoff") || idle.equals("spin"), "net.idle must be 'backoff' or 'spin': '%s'", idle);
        return new NetOptions(bind, port, advertised, secret(config), idle.equals("spin"));
    }

    private static SharedSecret secret(FabricConfig config) {
        String option = config.options().get(NetFabricProvider.SECRET_OPTION);
        if (option != null) {
            return SharedSecret.of(option, "from the " + NetFabricProvider.SECRET_OPTION + " option");
        }
        String environment = System.getenv(NetFabricProvider.SECRET_ENVIRONMENT);
        if (environment != null && !environment.isEmpty()) {
            return SharedSecret.of(
                    environment, "from the environment variable " + NetFabricProvider.SECRET_ENVIRONMENT);
        }
        return SharedSecret.perProcess();
    }

    /** A literal IP address (no name lookups: a fabric address names an interface, not a host name). */
    private static InetAddress address(String text, String option) {
        try {
            return InetAddress.ofLiteral(text.strip());
        } catch (IllegalArgumentException e) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    option + " must be an IP address literal: '" + text + "'",
                    e);
        }
    }
}
