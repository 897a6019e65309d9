package dev.faro.join.radix;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.PlainSegments;
import dev.faro.join.Workers;
import dev.faro.join.rma.RmaLane;
import dev.faro.join.rma.RmaWindow;
import dev.faro.join.workload.Tuples;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One thread's network-partitioning pass (thesis §3.2.1 phase 2, Fig. 3.2): the first radix pass fused with the
 * exchange. A tuple of a partition this node owns goes straight to its exclusive place in this node's window; a tuple
 * of a remote partition goes into the thread's current private buffer for that partition, one of {@code k}
 * pre-registered buffers of {@code bufferBytes}. A full buffer is put (one-sided WRITE) at the thread's cursor in the
 * owner's window, the cursor advances, and the thread moves on to the partition's next buffer, waiting for that
 * buffer's previous put to complete only if it has not yet (with k = 1: always, so partitioning and transfer add up).
 *
 * <pre>
 * buffers: one registered region per thread, k x remotePartitions x bufferBytes
 *   buffer (r, b) of remote partition index r at (r * k + b) * bufferBytes, request slot r * k + b
 * </pre>
 *
 * <p>Timers (thesis Fig. 4.3b): {@link #putNanos()} is time inside {@link RmaLane#put} (enqueueing, including waits
 * for a free send-queue entry), {@link #waitNanos()} time waiting for a buffer's previous put and for the final
 * flush; the rest of the pass is partitioning compute; {@link #fabricCpuNanos()} is the CPU time of the put and wait
 * parts (a thread CPU clock read per shipped buffer). Data path: allocation-free; thread-confined.
 */
final class NetworkPartitioner {

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private final RmaLane lane;
    private final MemoryRegion buffers;
    private final MemorySegment bufferBytes;
    private final int k;
    private final int bufferSize;
    private final int[] owners;
    /** By partition: -1 for a partition this node owns, else its remote partition index. */
    private final int[] route;
    /** By remote partition index: the byte offset of the next tuple in the current buffer, and that buffer's end. */
    private final long[] writeAt;

    private final long[] bufferEnd;
    /** By remote partition index: which of the k buffers is current. */
    private final int[] current;
    /**
     * By partition, during {@link #partition}: the offset of its next tuple in the span over the window part and the
     * buffers, and where its current buffer ends there (-1, never reached, for a partition this node owns).
     */
    private final long[] next;

    private final long[] end;

    private long putNanos;
    private long waitNanos;
    private long fabricCpuNanos;

    NetworkPartitioner(
            RmaLane lane,
            MemoryRegion buffers,
            int k,
            int bufferSize,
            int[] owners,
            int rank,
            int[] remoteIndex,
            int remoteCount) {
        this.lane = lane;
        this.buffers = buffers;
        this.bufferBytes = PlainSegments.of(buffers.segment());
        this.k = k;
        this.bufferSize = bufferSize;
        this.owners = owners;
        this.route = new int[owners.length];
        for (int p = 0; p < owners.length; p++) {
            route[p] = owners[p] == rank ? -1 : remoteIndex[p];
        }
        this.writeAt = new long[remoteCount];
        this.bufferEnd = new long[remoteCount];
        this.current = new int[remoteCount];
        this.next = new long[owners.length];
        this.end = new long[owners.length];
        for (int r = 0; r < remoteCount; r++) {
            writeAt[r] = (long) r * k * bufferSize;
            bufferEnd[r] = writeAt[r] + bufferSize;
        }
    }

    /** The buffer bytes a thread needs. */
    static long bufferRegionBytes(int remoteCount, int k, int bufferSize) {
        return Math.max(64, (long) remoteCount * k * bufferSize);
    }

    /**
     * Partitions tuples {@code [from, to)} of {@code source} on the low {@code mask} bits: local partitions into
     * {@code window}'s own part, remote ones through the buffers into the owners' parts; {@code cursors} (tuple
     * indexes in the owner's window part, by partition) are this thread's exclusive write positions. Ships the
     * partly filled buffers at the end (without waiting for them).
     *
     * <p>Every tuple is one store at its partition's next offset in one segment spanning the window part and the
     * buffers ({@link PlainSegments#spanning}): no branch on whether the partition is local, which half the tuples
     * of two nodes would mispredict; a buffer's end is a compare that is almost never true.
     */
    void partition(MemorySegment source, long from, long to, int mask, RmaWindow window, long[] cursors) {
        MemorySegment local = window.segment();
        MemorySegment span = PlainSegments.spanning(local, bufferBytes);
        long windowBase = local.address() - span.address();
        long bufferBase = bufferBytes.address() - span.address();
        for (int partition = 0; partition < owners.length; partition++) {
            int r = route[partition];
            if (r < 0) {
                next[partition] = windowBase + cursors[partition] * Tuples.TUPLE_LENGTH;
                end[partition] = -1;
            } else {
                next[partition] = bufferBase + writeAt[r];
                end[partition] = bufferBase + bufferEnd[r];
            }
        }
        long last = to * Tuples.TUPLE_LENGTH;
        long[] next = this.next;
        long[] end = this.end;
        long at = from * Tuples.TUPLE_LENGTH;
        while (at < last) {
            // the hot loop has no call in it (a full buffer leaves it), so that the JIT keeps the arrays and the
            // segments' checks out of it: with the call inside it ran 2.7x the CPU time of RadixKernels.scatter
            int full = -1;
            for (; at < last; at += Tuples.TUPLE_LENGTH) {
                long key = source.get(LONG, at);
                long rid = source.get(LONG, at + Tuples.RID_OFFSET);
                int partition = (int) key & mask;
                long target = next[partition];
                span.set(LONG, target, key);
                span.set(LONG, target + Tuples.RID_OFFSET, rid);
                target += Tuples.TUPLE_LENGTH;
                next[partition] = target;
                if (target == end[partition]) {
                    full = partition;
                    at += Tuples.TUPLE_LENGTH;
                    break;
                }
            }
            if (full >= 0) {
                int r = route[full];
                writeAt[r] = next[full] - bufferBase;
                ship(full, r, window, cursors);
                next[full] = bufferBase + writeAt[r];
                end[full] = bufferBase + bufferEnd[r];
            }
        }
        for (int partition = 0; partition < owners.length; partition++) {
            int r = route[partition];
            if (r < 0) {
                cursors[partition] = (next[partition] - windowBase) / Tuples.TUPLE_LENGTH;
                continue;
            }
            writeAt[r] = next[partition] - bufferBase;
            if (writeAt[r] > bufferEnd[r] - bufferSize) {
                ship(partition, r, window, cursors);
            }
        }
    }

    private void ship(int partition, int r, RmaWindow window, long[] cursors) {
        int slot = r * k + current[r];
        int tuples = (int) ((writeAt[r] - (bufferEnd[r] - bufferSize)) / Tuples.TUPLE_LENGTH);
        long start = System.nanoTime();
        long cpuStart = Workers.cpuNanos();
        lane.put(
                owners[partition],
                window,
                cursors[partition] * Tuples.TUPLE_LENGTH,
                buffers,
                (long) slot * bufferSize,
                tuples * Tuples.TUPLE_LENGTH,
                slot);
        long put = System.nanoTime();
        putNanos += put - start;
        cursors[partition] += tuples;
        int next = current[r] + 1 == k ? 0 : current[r] + 1;
        current[r] = next;
        int nextSlot = r * k + next;
        writeAt[r] = (long) nextSlot * bufferSize;
        bufferEnd[r] = writeAt[r] + bufferSize;
        if (!lane.isComplete(nextSlot)) {
            lane.await(nextSlot);
            waitNanos += System.nanoTime() - put;
        }
        fabricCpuNanos += Workers.cpuNanos() - cpuStart;
    }

    /** Waits for every put of this thread (the end of its pass). */
    void flush() {
        long start = System.nanoTime();
        long cpuStart = Workers.cpuNanos();
        lane.flush();
        waitNanos += System.nanoTime() - start;
        fabricCpuNanos += Workers.cpuNanos() - cpuStart;
    }

    long putNanos() {
        return putNanos;
    }

    long waitNanos() {
        return waitNanos;
    }

    /**
     * The thread's CPU time inside the fabric: putting (on {@code shm} the put's copy into the peer's window, the
     * work a NIC does on RDMA hardware), waiting for a buffer's put and flushing.
     */
    long fabricCpuNanos() {
        return fabricCpuNanos;
    }
}
