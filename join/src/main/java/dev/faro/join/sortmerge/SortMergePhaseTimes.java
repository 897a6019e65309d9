package dev.faro.join.sortmerge;

/**
 * One node's phase times of a sort-merge join, in nanoseconds, as the thesis breaks them down (Fig. 4.4): range
 * partitioning (with the histogram, splitters and offsets), window allocation, sorting with the transfer (split
 * into sort compute, put and wait as means over the node's threads), merging and matching; {@code totalNanos} is the
 * node's whole join, barrier waits included.
 *
 * <p>Beside them: {@code partitionKernelsNanos}, the wall time of the partitioning's per-thread kernels (min and max
 * for the splitters, histogram, scatter; the rest of the phase is its collectives and offsets), and per phase the CPU
 * time of its worker threads, the mean over the node's threads ({@code *CpuNanos}), to compare with a model fed by
 * rates per CPU second; {@code sortFabricCpuNanos} is the part of the sorting's CPU time spent inside the fabric
 * (put, wait, flush: on {@code shm} the put's copy, an RDMA NIC's work), as for the radix join's network pass.
 */
public record SortMergePhaseTimes(
        long partitionNanos,
        long windowNanos,
        long sortNanos,
        long sortComputeNanos,
        long sortPutNanos,
        long sortWaitNanos,
        long mergeNanos,
        long matchNanos,
        long totalNanos,
        long bytesPut,
        long partitionKernelsNanos,
        long partitionCpuNanos,
        long sortCpuNanos,
        long sortFabricCpuNanos,
        long mergeCpuNanos,
        long matchCpuNanos) {}
