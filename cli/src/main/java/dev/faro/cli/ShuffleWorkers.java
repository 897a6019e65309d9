package dev.faro.cli;

import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.shm.ShmFabricProvider;
import dev.faro.fabric.ucx.UcxFabricProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where the workers of {@code faro bench shuffle throughput} and {@code e1}...{@code e8} come from, over {@link
 * ClusterOptions} (the same options and checks as {@code faro tpch}): without {@code --listen}, a local cluster over
 * {@code shm} sized by {@code --nodes}; with {@code --listen ADDR:PORT --workers N}, the N workers that join, which fix
 * the node counts: an explicit {@code --nodes} value above N is refused, and without {@code --nodes} the command's
 * default counts below N are measured, and N itself. Each refusal is an {@link IllegalArgumentException} whose message
 * is the one line the user sees. Coordination code.
 */
final class ShuffleWorkers {

    private ShuffleWorkers() {}

    /**
     * The node counts to measure: {@code given} ({@code --nodes}, or null) or {@code defaults}, checked against the
     * joining workers when {@code cluster} listens. Also refuses a local {@code --provider} other than shm.
     */
    static List<Integer> nodeCounts(ClusterOptions cluster, List<Integer> given, List<Integer> defaults) {
        if (!cluster.listening()) {
            if (!cluster.localProvider().equals(ShmFabricProvider.NAME)) {
                throw new IllegalArgumentException("the local workers of bench shuffle use shm; --provider net or"
                        + " ucx goes with --listen ADDR:PORT --workers N (workers started with faro worker --join)");
            }
            return given != null ? given : defaults;
        }
        int workers = cluster.workers();
        if (given != null) {
            for (int nodes : given) {
                cluster.requireJoined("--nodes", nodes);
            }
            return given;
        }
        List<Integer> counts = new ArrayList<>(
                defaults.stream().filter(nodes -> nodes < workers).toList());
        counts.add(workers);
        return counts;
    }

    /** The joining workers' start (every option checked, the secret found), or null for a local cluster. */
    static ClusterStart joined(ClusterOptions cluster, Consumer<String> notes) {
        return cluster.listening() ? cluster.joining(notes) : null;
    }

    /** Whether the workers' fabric is ucx, which has RC queue pairs only. */
    static boolean rcOnly(ClusterOptions cluster) {
        return cluster.listening() && cluster.provider().equals(UcxFabricProvider.NAME);
    }
}
