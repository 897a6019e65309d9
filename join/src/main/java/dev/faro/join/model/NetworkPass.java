package dev.faro.join.model;

/**
 * The part both joins' models share (thesis §3.3, Eqs. 3.3–3.5 and 3.13–3.14): a pass that keeps 1/N of its tuples
 * local and sends (N − 1)/N over a link each thread gets 1/T of, at a compute rate of {@code computeRate} tuples per
 * second per thread (P_partition for the radix join, P_sort_run(l) for the sort-merge join).
 */
final class NetworkPass {

    private NetworkPass() {}

    /** Eq. 3.3: network-bound iff (N − 1)/N · P_compute > P_network. */
    static boolean networkBound(int nodes, double computeRate, double networkRatePerThread) {
        return nodes > 1 && (nodes - 1.0) / nodes * computeRate > networkRatePerThread;
    }

    /** Eqs. 3.4–3.5 (3.13–3.14): the pass's per-thread rate, P_compute if compute-bound, else the harmonic mix. */
    static double ratePerThread(int nodes, double computeRate, double networkRatePerThread) {
        if (!networkBound(nodes, computeRate, networkRatePerThread)) {
            return computeRate;
        }
        double n = nodes;
        return 1.0 / ((1.0 / n) / computeRate + ((n - 1.0) / n) / networkRatePerThread);
    }
}
