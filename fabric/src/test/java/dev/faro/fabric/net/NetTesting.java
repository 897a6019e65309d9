package dev.faro.fabric.net;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricConfig;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/** Helpers of the {@code net} provider's tests: configurations, and no progress thread outliving its node. */
final class NetTesting {

    /** The secret of this JVM's test nodes (children get it on their command line). */
    static final String SECRET = "faro-net-test-secret-" + Long.toHexString(System.nanoTime());

    private NetTesting() {}

    static FabricConfig config(String nodeName) {
        return FabricConfig.of(NetFabricProvider.NAME, nodeName).withOption(NetFabricProvider.SECRET_OPTION, SECRET);
    }

    /** The progress threads of net nodes still running in this JVM. */
    static List<String> liveProgressThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith("faro-net-progress-"))
                .sorted()
                .toList();
    }

    /** Asserts that every node's progress thread has ended (close joins it, so this holds at once). */
    static void assertNoProgressThreadLeft(String when) {
        List<String> left = liveProgressThreads();
        for (int i = 0; i < 100 && !left.isEmpty(); i++) {
            LockSupport.parkNanos(10_000_000);
            left = liveProgressThreads();
        }
        assertThat(left).as("net progress threads still running %s", when).isEmpty();
    }
}
