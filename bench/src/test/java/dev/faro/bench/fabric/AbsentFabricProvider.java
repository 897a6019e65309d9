package dev.faro.bench.fabric;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricProvider;
import dev.faro.fabric.FaroException;

/**
 * A provider whose library is never installed, as the {@code ucx} provider is without libucx: opening it fails with
 * {@code NOT_SUPPORTED} and the line that says what to install. Found by the workers through the test class path.
 */
public final class AbsentFabricProvider implements FabricProvider {

    static final String NAME = "absent-for-test";

    static final String MESSAGE = "this needs libsomething (apt-get install libsomething0)";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "a provider whose library is not installed (tests only)";
    }

    @Override
    public Fabric open(FabricConfig config) {
        throw new FaroException(FaroException.Category.NOT_SUPPORTED, MESSAGE);
    }
}
