package dev.faro.join.rma;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.locks.LockSupport;

/**
 * The collectives the ETH19 joins use among the ranks of an {@link RmaGroup}, built on one-sided WRITEs over the
 * fabric (never on the bootstrap or coordinator): allreduce (sum), inclusive and exclusive scan, reduce-scatter,
 * all-to-all of counts, barrier, broadcast, and all-gather of longs or bytes.
 *
 * <p>Every collective is a sequence of all-gather rounds: each rank writes its contribution into its slot of every
 * peer's collective region ({@link CollectiveDescriptor}), then waits until every peer's slot of the round is
 * there and its own writes have completed; the reduction is then computed locally from the gathered values. That
 * costs {@code size} times the data of a tree reduction, which is nothing at the sizes the joins use (histograms of
 * a few thousand counts over a few ranks), and gives every rank the same result.
 *
 * <p>Coordination code, one thread at a time; every rank calls the same collectives in the same order with
 * equally long arrays.
 */
public final class Collectives {

    /** Spins before a waiting collective yields, and yields before it parks briefly. */
    private static final int SPINS = 1_000;

    private static final int YIELDS = 10_000;

    /** How long a collective waits for a silent peer before it probes whether the peer still lives. */
    private static final long PROBE_AFTER_NANOS = 200_000_000L;

    private final RmaGroup group;
    private final RmaLane lane;
    private final RmaWindow control;
    private final MemoryRegion staging;
    private final int rank;
    private final int size;
    private final int slotBytes;
    private long round;

    Collectives(RmaGroup group, RmaLane lane, RmaWindow control, MemoryRegion staging) {
        this.group = group;
        this.lane = lane;
        this.control = control;
        this.staging = staging;
        this.rank = group.rank();
        this.size = group.size();
        this.slotBytes = group.config().collectiveSlotBytes();
    }

    /** Returns when every rank has called it. */
    public void barrier() {
        exchange(0);
    }

    /**
     * The group's last collective: a barrier after which no rank touches another's memory, so every rank may close.
     * Its own writes may complete with errors here (a peer that saw them may already be closing); they are ignored.
     */
    void finalBarrier() {
        exchange(0, true);
    }

    /** Every rank's {@code values}, concatenated by rank ({@code size * values.length} longs). */
    public long[] allGather(long[] values) {
        int n = values.length;
        long[] all = new long[size * n];
        int perRound = CollectiveDescriptor.payloadCapacity(slotBytes) / Long.BYTES;
        for (int start = 0; start == 0 || start < n; start += perRound) {
            int count = Math.min(perRound, n - start);
            int bytes = count * Long.BYTES;
            long payload = CollectiveDescriptor.payloadOffset(slotBytes, bytes);
            MemorySegment.copy(values, start, staging.segment(), ValueLayout.JAVA_LONG, payload, count);
            long thisRound = exchange(bytes);
            for (int peer = 0; peer < size; peer++) {
                long slot = CollectiveDescriptor.slotOffset(thisRound, peer, size, slotBytes);
                int length = CollectiveDescriptor.length(control.segment(), slot, slotBytes);
                if (length != bytes) {
                    throw new IllegalStateException("rank " + peer + " gathered " + length + " bytes in round "
                            + thisRound + ", rank " + rank + " " + bytes + ": unequal collective calls");
                }
                MemorySegment.copy(
                        control.segment(), ValueLayout.JAVA_LONG, slot + payload, all, peer * n + start, count);
            }
            if (n == 0) {
                break;
            }
        }
        return all;
    }

    /** The element-wise sum of every rank's {@code values} ({@code MPI_Allreduce(MPI_SUM)}). */
    public long[] allReduceSum(long[] values) {
        long[] all = allGather(values);
        long[] sum = new long[values.length];
        for (int peer = 0; peer < size; peer++) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += all[peer * values.length + i];
            }
        }
        return sum;
    }

    /** The element-wise sum over ranks {@code 0 .. rank} ({@code MPI_Scan(MPI_SUM)}). */
    public long[] scanInclusive(long[] values) {
        return prefix(values, true);
    }

    /** The element-wise sum over ranks {@code 0 .. rank-1}, zeros at rank 0 ({@code MPI_Exscan(MPI_SUM)}). */
    public long[] scanExclusive(long[] values) {
        return prefix(values, false);
    }

    private long[] prefix(long[] values, boolean inclusive) {
        long[] all = allGather(values);
        long[] sum = new long[values.length];
        int last = inclusive ? rank : rank - 1;
        for (int peer = 0; peer <= last; peer++) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += all[peer * values.length + i];
            }
        }
        return sum;
    }

    /**
     * {@code values} holds {@code size} blocks of equal length; returns the element-wise sum of every rank's block
     * {@code rank} ({@code MPI_Reduce_scatter_block(MPI_SUM)}).
     */
    public long[] reduceScatterBlock(long[] values) {
        int block = blockLength(values);
        long[] all = allGather(values);
        long[] sum = new long[block];
        for (int peer = 0; peer < size; peer++) {
            for (int i = 0; i < block; i++) {
                sum[i] += all[peer * values.length + rank * block + i];
            }
        }
        return sum;
    }

    /**
     * {@code values} holds {@code size} blocks of equal length, block {@code j} meant for rank {@code j}; returns
     * the blocks meant for this rank, by sending rank ({@code MPI_Alltoall}).
     */
    public long[] allToAll(long[] values) {
        int block = blockLength(values);
        long[] all = allGather(values);
        long[] mine = new long[values.length];
        for (int peer = 0; peer < size; peer++) {
            System.arraycopy(all, peer * values.length + rank * block, mine, peer * block, block);
        }
        return mine;
    }

    /** {@code root}'s {@code values} at every rank (the other ranks' arrays give only the length). */
    public long[] broadcast(int root, long[] values) {
        FaroException.checkArgument(root >= 0 && root < size, "root out of range [0, %d): %d", size, root);
        long[] all = allGather(values);
        long[] result = new long[values.length];
        System.arraycopy(all, root * values.length, result, 0, values.length);
        return result;
    }

    /** Every rank's {@code bytes} by rank; lengths may differ, up to one slot's payload. */
    public byte[][] allGatherBytes(byte[] bytes) {
        FaroException.checkArgument(
                bytes.length <= CollectiveDescriptor.payloadCapacity(slotBytes),
                "at most %d bytes per rank: %d",
                CollectiveDescriptor.payloadCapacity(slotBytes),
                bytes.length);
        long payload = CollectiveDescriptor.payloadOffset(slotBytes, bytes.length);
        MemorySegment.copy(bytes, 0, staging.segment(), ValueLayout.JAVA_BYTE, payload, bytes.length);
        long thisRound = exchange(bytes.length);
        byte[][] all = new byte[size][];
        for (int peer = 0; peer < size; peer++) {
            long slot = CollectiveDescriptor.slotOffset(thisRound, peer, size, slotBytes);
            int length = CollectiveDescriptor.length(control.segment(), slot, slotBytes);
            all[peer] = new byte[length];
            MemorySegment.copy(
                    control.segment(),
                    ValueLayout.JAVA_BYTE,
                    slot + CollectiveDescriptor.payloadOffset(slotBytes, length),
                    all[peer],
                    0,
                    length);
        }
        return all;
    }

    private int blockLength(long[] values) {
        FaroException.checkArgument(
                values.length % size == 0, "length %d is not a multiple of the group size %d", values.length, size);
        return values.length / size;
    }

    /**
     * One all-gather round of the {@code length} payload bytes staged at the end of the staging slot: writes them
     * (with their length and the round) into this rank's slot at every rank, and waits until every rank's slot of
     * the round has arrived here and this rank's writes have completed. Returns the round.
     */
    private long exchange(int length) {
        return exchange(length, false);
    }

    private long exchange(int length, boolean last) {
        long thisRound = ++round;
        CollectiveDescriptor.writeTrailer(staging.segment(), slotBytes, length, thisRound);
        long start = CollectiveDescriptor.payloadOffset(slotBytes, length);
        int bytes = length + CollectiveDescriptor.TRAILER_LENGTH;
        long mySlot = CollectiveDescriptor.slotOffset(thisRound, rank, size, slotBytes);
        for (int peer = 0; peer < size; peer++) {
            lane.put(peer, control, mySlot + start, staging, start, bytes, peer);
        }
        long deadline = group.deadline();
        long waitStart = System.nanoTime();
        long lastProbe = waitStart;
        int idle = 0;
        while (true) {
            int missing = -1;
            for (int peer = 0; peer < size && missing < 0; peer++) {
                long slot = CollectiveDescriptor.slotOffset(thisRound, peer, size, slotBytes);
                if (CollectiveDescriptor.round(control.segment(), slot, slotBytes) != thisRound) {
                    missing = peer;
                }
            }
            if (missing < 0 && last) {
                lane.drainLeniently();
                return thisRound;
            }
            if (missing < 0 && lane.outstanding() == 0) {
                lane.poll();
                return thisRound;
            }
            if (lane.poll() > 0) {
                idle = 0;
                continue;
            }
            group.checkWait(deadline, "the other ranks in a collective");
            if (missing >= 0) {
                long now = System.nanoTime();
                if (now - lastProbe > PROBE_AFTER_NANOS) {
                    lane.probe(missing, control);
                    lastProbe = now;
                }
            }
            if (++idle < SPINS) {
                Thread.onSpinWait();
            } else if (idle < YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }
}
