package dev.faro.fabric;

import java.util.Map;

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

    /**
     * Removes what nodes of this provider on this host left behind when their process died without closing them
     * (e.g. SIGKILL), given the options those nodes were opened with; nodes that are alive are left alone. Called by
     * whoever notices such a death (a coordinator whose worker process ended). Never throws.
     *
     * @return how many nodes' leftovers were removed
     */
    default int removeLeftovers(Map<String, String> options) {
        return 0;
    }
}
