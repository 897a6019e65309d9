package dev.faro.fabric;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/** Opens fabric nodes by provider name. */
public final class Fabrics {

    private Fabrics() {}

    /** The installed providers. */
    public static List<FabricProvider> providers() {
        return ServiceLoader.load(FabricProvider.class, Fabrics.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
    }

    /** Finds a provider by name; an unknown name is an {@code INVALID_ARGUMENT} listing the known ones. */
    public static FabricProvider provider(String name) {
        List<FabricProvider> providers = providers();
        return providers.stream()
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new FaroException(
                        FaroException.Category.INVALID_ARGUMENT,
                        "unknown fabric provider '" + name + "'; known: "
                                + providers.stream()
                                        .map(FabricProvider::name)
                                        .sorted()
                                        .toList()));
    }

    /**
     * Removes what dead nodes of provider {@code name} left on this host (see
     * {@link FabricProvider#removeLeftovers}); an unknown provider has none. Never throws.
     */
    public static int removeLeftovers(String name, Map<String, String> options) {
        for (FabricProvider provider : providers()) {
            if (provider.name().equals(name)) {
                return provider.removeLeftovers(options);
            }
        }
        return 0;
    }

    /** Opens a node of the configured provider. */
    public static Fabric open(FabricConfig config) {
        return provider(config.provider()).open(config);
    }
}
