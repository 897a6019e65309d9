package dev.faro.bench.shuffle;

import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The synthetic table R(a, b) of TODS19 §7.1 as the in-JVM harness generates it: 16-byte tuples of two longs, a key
 * {@code a} (a hash, so the partitioner spreads it uniformly) and a value {@code b} unique per node, thread and row
 * ({@code node << 40 | thread << 32 | row}). The receiver's checksum is the sum of {@code mix(b)} over what arrives,
 * which is independent of order; the value also tells the receiver each tuple's sending thread and row, for the
 * order check.
 *
 * <p>Both sides use this class: the workers to fill their tables, the coordinator to compute what every receiver
 * must get.
 */
public final class ShuffleTuples {

    /** Bytes of one tuple: two longs. */
    public static final int TUPLE_BYTES = 16;

    /** The most threads a node may run (the value keeps 8 bits for the thread). */
    public static final int MAX_THREADS = 255;

    /** The most nodes (the value keeps the node above bit 40). */
    public static final int MAX_NODES = 1 << 16;

    private ShuffleTuples() {}

    /** The key of row {@code row} of thread {@code thread} at node {@code node}. */
    public static long key(int node, int thread, int row) {
        return Partitioner.mix(((long) node << 40) ^ ((long) thread << 32) ^ row);
    }

    /** The value of row {@code row} of thread {@code thread} at node {@code node}. */
    public static long value(int node, int thread, int row) {
        return (long) node << 40 | (long) thread << 32 | row;
    }

    /** The sending node encoded in {@code value}. */
    public static int node(long value) {
        return (int) (value >>> 40);
    }

    /** The sending thread encoded in {@code value}. */
    public static int thread(long value) {
        return (int) (value >>> 32 & 0xff);
    }

    /** The row encoded in {@code value}. */
    public static int row(long value) {
        return (int) value;
    }

    /** Writes rows {@code 0 .. rows-1} of a thread's table into {@code table}. */
    public static void fill(MemorySegment table, int node, int thread, int rows) {
        for (int row = 0; row < rows; row++) {
            long offset = (long) row * TUPLE_BYTES;
            table.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, key(node, thread, row));
            table.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + 8, value(node, thread, row));
        }
    }

    /**
     * What every node must receive in {@code shuffleCase}: each sending thread's table once per scan, every tuple to
     * each member of the group its key hashes to.
     */
    public static Expected expected(ShuffleCase shuffleCase) {
        TransmissionGroups groups = shuffleCase.groups();
        int nodes = groups.nodes();
        long[] count = new long[nodes];
        long[] checksum = new long[nodes];
        int groupCount = groups.groupCount();
        for (int node = 0; node < nodes; node++) {
            if (!shuffleCase.sends(node)) {
                continue;
            }
            for (int thread = 0; thread < shuffleCase.threads(); thread++) {
                for (int row = 0; row < shuffleCase.tuplesPerThread(); row++) {
                    // the partitioner of Partitioner.hashLongKey, without a segment
                    int group = groupCount == 1
                            ? 0
                            : (int) Long.remainderUnsigned(Partitioner.mix(key(node, thread, row)), groupCount);
                    long hash = Partitioner.mix(value(node, thread, row));
                    for (int member : groups.members(group)) {
                        count[member] += shuffleCase.scans();
                        checksum[member] += hash * shuffleCase.scans();
                    }
                }
            }
        }
        return new Expected(count, checksum);
    }

    /** What every node must receive: tuples and checksum, by node. Immutable. */
    public static final class Expected {
        private final long[] count;
        private final long[] checksum;

        Expected(long[] count, long[] checksum) {
            this.count = count.clone();
            this.checksum = checksum.clone();
        }

        /** Tuples node {@code node} must get. */
        public long count(int node) {
            return count[node];
        }

        /** The sum of {@code mix(value)} over the tuples node {@code node} must get. */
        public long checksum(int node) {
            return checksum[node];
        }

        /** Tuples all nodes must get together. */
        public long totalCount() {
            long total = 0;
            for (long c : count) {
                total += c;
            }
            return total;
        }
    }
}
