package dev.faro.fabric.ucx;

import dev.faro.fabric.CrossProcessConformanceSuite;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;

/**
 * The fabric contract for the {@code ucx} provider across real processes over UCX's TCP transport
 * ({@code ucx.tls=tcp,self}, loopback): this JVM and {@code FabricPeerMain} children. UCX emulates puts and gets over
 * TCP with messages its worker serves, and atomics are applied by the target's progress thread on every transport,
 * so a stopped child serves nothing until it continues ({@link #oneSidedOperationsNeedTheTargetProcess()}). The
 * provider has no shared files (the stale-resource case does not apply) and no UD (the UD case does not apply).
 */
@Requires(Requirement.UCX)
class UcxCrossProcessConformanceIT extends CrossProcessConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return UcxTesting.config(nodeName, "tcp,self");
    }

    @Override
    protected boolean oneSidedOperationsNeedTheTargetProcess() {
        return true;
    }
}
