package dev.faro.bench.fabric;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The physical limit every fabric number is compared with: single-thread {@link MemorySegment#copy} between two
 * off-heap buffers, the same message size and the same working-set cycling as the fabric stream, so both go to
 * memory alike.
 *
 * <p>Data path: allocation-free after construction; used by one command at a time, but commands run on their cluster
 * tasks' threads, so its memory is in a shared arena (a bulk copy checks a shared session no more than a confined one).
 */
final class MemcpyBaseline implements AutoCloseable {

    private final Arena arena = Arena.ofShared();
    private final MemorySegment source;
    private final MemorySegment target;
    private final int batch;

    /**
     * @param workingSetBytes the length of each buffer
     * @param batch copies between two looks at the clock (the initiator's signal interval, for symmetry)
     */
    MemcpyBaseline(long workingSetBytes, int batch) {
        this.source = arena.allocate(workingSetBytes, 4096);
        this.target = arena.allocate(workingSetBytes, 4096);
        this.batch = batch;
        source.fill((byte) 0x5a); // fault every page in before anything is timed
        target.fill((byte) 0);
    }

    /** Copies {@code sizeBytes} slot after slot for {@code durationNs}. */
    Measurement measure(int sizeBytes, long durationNs) {
        int slots = (int) Math.min(Integer.MAX_VALUE, source.byteSize() / sizeBytes);
        int slot = 0;
        long copies = 0;
        long startNs = System.nanoTime();
        long deadlineNs = startNs + durationNs;
        long nowNs;
        do {
            for (int i = 0; i < batch; i++) {
                long offset = (long) slot * sizeBytes;
                MemorySegment.copy(source, offset, target, offset, sizeBytes);
                slot = slot + 1 == slots ? 0 : slot + 1;
            }
            copies += batch;
            nowNs = System.nanoTime();
        } while (nowNs - deadlineNs < 0);
        return new Measurement(copies * sizeBytes, copies, nowNs - startNs, 0, 0);
    }

    @Override
    public void close() {
        arena.close();
    }
}
