package dev.faro.fabric.net;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricConformanceSuite;

/**
 * The fabric contract for the {@code net} provider, with every node in this JVM: each node listens on its own
 * ephemeral loopback port and talks to the others over real TCP connections and UDP datagrams. Once a test's nodes
 * are closed, no progress thread may be left running.
 */
class NetFabricConformanceTest extends FabricConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return NetTesting.config(nodeName);
    }

    @Override
    protected void afterNodesClosed() {
        NetTesting.assertNoProgressThreadLeft("after every node of the test closed");
    }
}
