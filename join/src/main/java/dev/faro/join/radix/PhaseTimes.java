package dev.faro.join.radix;

/**
 * One node's phase times of a radix hash join, in nanoseconds, as the thesis breaks them down (Figs. 3.11, 4.3): the
 * histogram (local histograms, global histogram, assignment and offsets), window allocation (windows and the
 * pre-registered buffers), the network-partitioning pass split into partitioning compute, put (enqueue) and wait
 * (for buffer reuse and the final flush) as means over the node's threads, the local partitioning pass and
 * build-probe; {@code totalNanos} is the node's whole join, waits at barriers included (the imbalance across nodes is
 * {@code max(total) - sum of mean phases}, see {@link #imbalanceNanos}).
 *
 * <p>Beside the wall times: {@code histogramScanNanos}, the wall time of the histogram's per-thread scans alone (the
 * rest of the histogram phase is the global histogram's collectives, the assignment and the offsets, which the
 * thesis's histogram phase includes and its Eq. 3.1 does not model), and per phase the CPU time of its worker
 * threads, the mean over the node's threads ({@code *CpuNanos}): a phase's cost that a loaded host does not inflate,
 * to compare with a model fed by rates per CPU second. The histogram's CPU time is that of its scans;
 * {@code networkFabricCpuNanos} is the part of the network pass's CPU time spent inside the fabric's put, wait and
 * flush (on {@code shm} the copy into the peer's window, which an RDMA NIC does without the CPU), so the pass's
 * partitioning compute is {@code networkCpuNanos - networkFabricCpuNanos}.
 */
public record PhaseTimes(
        long histogramNanos,
        long windowNanos,
        long networkNanos,
        long networkComputeNanos,
        long networkPutNanos,
        long networkWaitNanos,
        long localPartitionNanos,
        long buildProbeNanos,
        long totalNanos,
        long bytesPut,
        long histogramScanNanos,
        long histogramCpuNanos,
        long networkCpuNanos,
        long networkFabricCpuNanos,
        long localPartitionCpuNanos,
        long buildProbeCpuNanos) {

    /** The sum of the phases (without the waits between them). */
    public long phaseSumNanos() {
        return histogramNanos + windowNanos + networkNanos + localPartitionNanos + buildProbeNanos;
    }

    /** The thesis's imbalance over nodes: the slowest node's total minus the sum of the mean phase times. */
    public static long imbalanceNanos(java.util.List<PhaseTimes> nodes) {
        long maxTotal = 0;
        double meanPhases = 0;
        for (PhaseTimes node : nodes) {
            maxTotal = Math.max(maxTotal, node.totalNanos);
            meanPhases += (double) node.phaseSumNanos() / nodes.size();
        }
        return Math.max(0, maxTotal - Math.round(meanPhases));
    }
}
