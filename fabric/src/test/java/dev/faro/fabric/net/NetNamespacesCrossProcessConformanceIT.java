package dev.faro.fabric.net;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.PeerProcess;
import dev.faro.fabric.testing.NetworkNamespaces;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@code net} provider's cross-process contract ({@link NetCrossProcessConformanceIT}: the shared
 * {@link dev.faro.fabric.CrossProcessConformanceSuite} and the silent-peer case) with each child on another "host":
 * the child JVMs ({@code FabricPeerMain}) run inside a network namespace ({@code ip netns exec}) bound to its address
 * on a bridge ({@link NetworkNamespaces#bridged(int)}), and this JVM's nodes stay in the root namespace, bound to the
 * root's address on that bridge. So every RC connection and every UD datagram of the suite crosses two veth pairs and
 * a bridge instead of loopback (a child bound to its namespace's address could not even start anywhere else).
 *
 * <p>Lossy and failing links are {@link NetNamespacesIT}'s. Needs root and {@code ip}; where namespaces cannot be
 * created it says so loudly and is skipped (CI runs as root with iproute2, so there it runs).
 */
class NetNamespacesCrossProcessConformanceIT extends NetCrossProcessConformanceIT {

    private String unavailable;
    private NetworkNamespaces network;

    @BeforeAll
    void createNetwork() throws IOException {
        unavailable = NetworkNamespaces.unavailableBecause(List.of(), "NetNamespacesCrossProcessConformanceIT",
                "The cross-process conformance suite of the net provider between namespaces",
                "did NOT run. It needs root and iproute2 (ip); CI installs it in .ci/run.");
        if (unavailable != null) {
            return;
        }
        network = NetworkNamespaces.bridged(1);
    }

    @BeforeEach
    void requireNamespaces() {
        assumeTrue(unavailable == null, () -> "network namespaces unavailable: " + unavailable);
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
        return PeerProcess.start(config.withOption(NetFabricProvider.BIND_OPTION, network.address(0)),
                NetworkNamespaces.inside(network.host(0)));
    }
}
