package dev.faro.fabric;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The node life cycle of the fabric conformance suites: opening nodes through the provider hook
 * {@link #config(String)}, closing every node a test opened after the test, and the hooks a provider test uses to
 * check that its shared resources are gone.
 *
 * <p>One test instance serves all tests of a class ({@link TestInstance.Lifecycle#PER_CLASS}), so the hooks may be
 * instance methods. Every wait inside a test is bounded (see {@link FabricTesting#WAIT}); the class-level
 * {@link Timeout} is only a safety net against a provider call that never returns, so the build cannot hang.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public abstract class FabricTestHarness implements FabricNodes {

    private final List<Fabric> nodes = new CopyOnWriteArrayList<>();

    /** The configuration of a node of the provider under test, with the given node name. */
    protected abstract FabricConfig config(String nodeName);

    /** Called after each test, once every node it opened is closed (e.g. to check that shared files are gone). */
    protected void afterNodesClosed() {}

    /** Called once after all tests of the class, when every node is closed. */
    protected void afterAllNodesClosed() {}

    @Override
    public final FabricConfig nodeConfig(String nodeName) {
        return config(nodeName);
    }

    @Override
    public final Fabric open(String nodeName) {
        return open(config(nodeName));
    }

    @Override
    public final Fabric open(FabricConfig config) {
        Fabric fabric = Fabrics.open(config);
        nodes.add(fabric);
        return fabric;
    }

    @AfterEach
    final void closeNodesOfTheTest() {
        Throwable failure = null;
        for (int i = nodes.size() - 1; i >= 0; i--) {
            try {
                nodes.get(i).close();
            } catch (Throwable t) {
                failure = firstWins(failure, t);
            }
        }
        nodes.clear();
        try {
            afterNodesClosed();
        } catch (Throwable t) {
            failure = firstWins(failure, t);
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure != null) {
            throw new AssertionError("closing the nodes of the test failed", failure);
        }
    }

    @AfterAll
    final void allNodesClosed() {
        afterAllNodesClosed();
    }

    private static Throwable firstWins(Throwable first, Throwable next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
