package dev.faro.bench.join;

/**
 * One sort-merge join point of {@code faro bench join}, with the radix hash join of the same point (its largest k)
 * beside it. The phases sit in {@link dev.faro.join.radix.PhaseTimes}' slots: range partitioning as histogram, sort
 * and transfer as the network pass (compute, put, wait), merge as the local pass, match as build-probe.
 *
 * @param workload the workload's name
 * @param nodes N
 * @param threads T
 * @param bandwidthCap the emulated bandwidth per node (0: none)
 * @param measured the sort-merge join
 * @param radix the radix hash join at the same point
 */
record SortMergeRow(String workload, int nodes, int threads, long bandwidthCap, JoinPoint measured, JoinRow radix) {

    /** Whether the sort-merge join's result equals the radix join's and the reference's. */
    boolean correct() {
        return measured.consistent()
                && radix.correct()
                && measured.result().equals(radix.measured().result());
    }

    /** The sort-merge join's time over the radix hash join's (the thesis: about 2 rack-scale, 1.31 on the Cray). */
    double slowdown() {
        return measured.seconds() / radix.measured().seconds();
    }
}
