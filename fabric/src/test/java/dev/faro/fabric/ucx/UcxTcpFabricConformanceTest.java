package dev.faro.fabric.ucx;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.RcFabricConformanceSuite;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;

/**
 * The RC fabric contract for the {@code ucx} provider over UCX's TCP transport ({@code ucx.tls=tcp,self}, loopback),
 * every node in this JVM. Unlike shared memory, TCP endpoints get UCX's peer failure handling
 * ({@code ucx.error-mode=auto}), and UCX emulates puts and gets over TCP with messages served by the target's worker.
 */
@Requires(Requirement.UCX)
class UcxTcpFabricConformanceTest extends RcFabricConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return UcxTesting.config(nodeName, "tcp,self");
    }
}
