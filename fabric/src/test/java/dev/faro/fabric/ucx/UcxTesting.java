package dev.faro.fabric.ucx;

import dev.faro.fabric.FabricConfig;

/** Configurations of {@code ucx} test nodes. */
final class UcxTesting {

    private UcxTesting() {}

    /** A {@code ucx} node restricted to the given UCX transports. */
    static FabricConfig config(String nodeName, String transports) {
        return FabricConfig.of(UcxFabricProvider.NAME, nodeName).withOption(UcxFabricProvider.TLS_OPTION, transports);
    }
}
