package dev.faro.fabric;

/**
 * What the conformance test interfaces ({@link FabricConformanceSuite} mixes them in) need from the suite: nodes of
 * the provider under test. Every node opened here is closed after the test by {@link FabricTestHarness}.
 */
public interface FabricNodes {

    /** The provider's configuration for a node named {@code nodeName}; tweak it with its {@code with...} methods. */
    FabricConfig nodeConfig(String nodeName);

    /** Opens a node with {@link #nodeConfig(String)}. */
    Fabric open(String nodeName);

    /** Opens a node with a (modified) configuration. */
    Fabric open(FabricConfig config);
}
