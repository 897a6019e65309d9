package dev.faro.fabric.net;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.PeerProcess;
import dev.faro.fabric.netns.NetworkNamespaces;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@code net} provider's cross-process contract ({@link NetCrossProcessConformanceIT}: the shared
 * {@link dev.faro.fabric.CrossProcessConformanceSuite} and the silent-peer case) with each child on another "host":
 * the child JVMs ({@code FabricPeerMain}) run inside a network namespace ({@code ip netns exec}) bound to its address
 * on a bridge ({@link NetworkNamespaces#bridged(int)}), and this JVM's nodes stay in the root namespace, bound to the
 * root's address on that bridge. So every RC connection and every UD datagram of the suite crosses two veth pairs and
 * a bridge instead of loopback (a child bound to its namespace's address could not even start anywhere else).
 *
 * <p>Lossy and failing links are {@link NetNamespacesIT}'s. Needs root and {@code ip}; where namespaces cannot be
 * created it says so in one loud line and is skipped, or fails under {@code FARO_REQUIRE=netns} (CI runs as root with
 * iproute2 and sets it).
 */
@Requires(Requirement.NETNS)
class NetNamespacesCrossProcessConformanceIT extends NetCrossProcessConformanceIT {

    private NetworkNamespaces network;

    @BeforeAll
    void createNetwork() throws IOException {
        network = NetworkNamespaces.bridged(1);
    }

    @AfterAll
    void removeNetwork() {
        if (network != null) {
            network.close(); // the children are gone: each test closes or kills its own
        }
    }

    /** A node of this JVM: in the root namespace, on its bridge address. */
    @Override
    protected FabricConfig config(String nodeName) {
        return NetTesting.config(nodeName).withOption(NetFabricProvider.BIND_OPTION, network.rootAddress());
    }

    /** A child: inside host 0's namespace, bound to that host's address instead of the root's. */
    @Override
    protected PeerProcess launchChild(FabricConfig config) throws IOException {
        return PeerProcess.start(
                config.withOption(NetFabricProvider.BIND_OPTION, network.address(0)),
                NetworkNamespaces.inside(network.host(0)));
    }
}
