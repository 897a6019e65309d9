package dev.faro.fabric.ucx;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.RcFabricConformanceSuite;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;

/**
 * The RC fabric contract for the {@code ucx} provider over UCX's shared-memory transports ({@code ucx.tls=sm,self}:
 * posix, sysv and cma), every node in this JVM. Needs libucx: without it the class is skipped with the provider's
 * one-line message, or fails with it under {@code FARO_REQUIRE=ucx} (CI installs libucx0 and sets it).
 */
@Requires(Requirement.UCX)
class UcxFabricConformanceTest extends RcFabricConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return UcxTesting.config(nodeName, "sm,self");
    }
}
