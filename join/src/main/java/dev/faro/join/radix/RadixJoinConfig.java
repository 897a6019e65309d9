package dev.faro.join.radix;

import dev.faro.fabric.FaroException;
import java.util.Objects;

/**
 * The settings of a radix hash join run (thesis §3.2.1, §3.4.1).
 *
 * @param threads worker threads per node
 * @param networkBits radix bits of the network-partitioning pass (fan-out {@code 2^networkBits}); the thesis needs
 *     at least as many partitions as cores and used 512–2048
 * @param localBits radix bits of the local pass; -1 chooses them so that an inner sub-partition holds about
 *     {@link #CACHE_TUPLES} tuples (0: no local pass, d = 1)
 * @param buffersPerPartition k, the private RDMA buffers per thread and remote partition (at least 1; the thesis
 *     uses 2, double buffering; 1 serialises partitioning and transfer)
 * @param bufferBytes the size of one such buffer (thesis default 64 KiB), a multiple of 16
 * @param assignment how partitions are assigned to nodes
 */
public record RadixJoinConfig(
        int threads,
        int networkBits,
        int localBits,
        int buffersPerPartition,
        int bufferBytes,
        PartitionAssignment assignment) {

    /** The inner tuples per final partition the local pass aims at: 16-byte tuples plus table in a 256 KiB L2. */
    public static final int CACHE_TUPLES = 8 * 1024;

    public static final int DEFAULT_BUFFER_BYTES = 64 * 1024;

    public RadixJoinConfig {
        Objects.requireNonNull(assignment, "assignment is null");
        FaroException.checkArgument(threads >= 1 && threads <= 256, "threads must be in [1, 256]: %d", threads);
        FaroException.checkArgument(
                networkBits >= 0 && networkBits <= 16, "networkBits must be in [0, 16]: %d", networkBits);
        FaroException.checkArgument(localBits >= -1 && localBits <= 16, "localBits must be in [-1, 16]: %d", localBits);
        FaroException.checkArgument(
                buffersPerPartition >= 1 && buffersPerPartition <= 64,
                "buffersPerPartition must be in [1, 64]: %d",
                buffersPerPartition);
        FaroException.checkArgument(
                bufferBytes >= 64 && bufferBytes % 16 == 0 && bufferBytes <= 16 << 20,
                "bufferBytes must be a multiple of 16 in [64, 16 MiB]: %d",
                bufferBytes);
    }

    /** The thesis's defaults: 2^10 partitions, automatic local bits, 2 buffers of 64 KiB, round robin. */
    public static RadixJoinConfig defaults(int threads) {
        return new RadixJoinConfig(threads, 10, -1, 2, DEFAULT_BUFFER_BYTES, PartitionAssignment.ROUND_ROBIN);
    }

    public RadixJoinConfig withNetworkBits(int value) {
        return new RadixJoinConfig(threads, value, localBits, buffersPerPartition, bufferBytes, assignment);
    }

    public RadixJoinConfig withBuffers(int count, int bytes) {
        return new RadixJoinConfig(threads, networkBits, localBits, count, bytes, assignment);
    }

    public RadixJoinConfig withAssignment(PartitionAssignment value) {
        return new RadixJoinConfig(threads, networkBits, localBits, buffersPerPartition, bufferBytes, value);
    }

    public RadixJoinConfig withLocalBits(int value) {
        return new RadixJoinConfig(threads, networkBits, value, buffersPerPartition, bufferBytes, assignment);
    }

    /** The local pass's bits for {@code innerTotal} inner tuples: as configured, or just enough for cache size. */
    public int localBitsFor(long innerTotal) {
        if (localBits >= 0) {
            return localBits;
        }
        long perPartition = innerTotal >> networkBits;
        int bits = 0;
        while (bits < 16 && perPartition >> bits > CACHE_TUPLES) {
            bits++;
        }
        return bits;
    }
}
