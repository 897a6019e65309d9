package dev.faro.join.sortmerge;

/**
 * One node's phase times of a sort-merge join, in nanoseconds, as the thesis breaks them down (Fig. 4.4): range
 * partitioning (with the histogram, splitters and offsets), window allocation, sorting with the transfer (split
 * into sort compute, put and wait as means over the node's threads), merging and matching; {@code totalNanos} is the
 * node's whole join, barrier waits included.
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
        long bytesPut) {}
