package dev.faro.fabric.ucx;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.RcFabricConformanceSuite;

/**
 * The RC fabric contract for the {@code ucx} provider over UCX's shared-memory transports ({@code ucx.tls=sm,self}:
 * posix, sysv and cma), every node in this JVM. Without libucx the nodes cannot open and every test fails with the
 * provider's one-line message: CI installs libucx0, so a missing library is an error, not a skip.
 */
class UcxFabricConformanceTest extends RcFabricConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return UcxTesting.config(nodeName, "sm,self");
    }
}
