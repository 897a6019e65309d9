package dev.faro.fabric;

/**
 * A fabric implementation, found through {@link java.util.ServiceLoader} by {@link Fabrics#open(FabricConfig)}.
 * Each provider lives in its own package with this as its one public entry point.
 */
public interface FabricProvider {

    /** The name users pass in {@link FabricConfig#provider()}. */
    String name();

    /** A one-line description for {@code --help} texts. */
    String description();

    /** Opens one node of this fabric. */
    Fabric open(FabricConfig config);
}
