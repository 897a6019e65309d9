package dev.faro.shuffle.buffer;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.MemoryRegion;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A node's pool of registered shuffle buffers of one size (TODS19 §6.2: "a shared pool of buffers is registered
 * when the database system starts"). Endpoints borrow buffers into circulation and give them back; memory is
 * registered in regions of {@code buffersPerRegion} buffers when the free list runs dry, up to
 * {@code maximumBuffers}. Every buffer has a pool-wide index (use it as the request id of a posted buffer and look
 * the buffer up with {@link #buffer(int)}).
 *
 * <p>Thread-safe: a lock guards the free list and registration; {@link #buffer(int)} is a racy read of a published
 * array entry, valid for any index this pool handed out. Registered memory is freed only when the pool closes.
 */
public final class BufferPool implements AutoCloseable {

    private final Fabric fabric;
    private final int bufferBytes;
    private final int buffersPerRegion;
    private final int maximumBuffers;
    private final Set<Access> access;
    private final ReentrantLock lock = new ReentrantLock();
    private final ShuffleBuffer[] buffers;
    private final int[] free;
    private final List<MemoryRegion> regions = new ArrayList<>();
    private int freeCount;
    private int registered;
    private long borrows;
    private long returns;
    private boolean closed;

    public BufferPool(Fabric fabric, int bufferBytes, int buffersPerRegion, int maximumBuffers, Set<Access> access) {
        if (bufferBytes < 64 || buffersPerRegion < 1 || maximumBuffers < 1) {
            throw new IllegalArgumentException("bad pool size: bufferBytes=" + bufferBytes + ", buffersPerRegion="
                    + buffersPerRegion + ", maximumBuffers=" + maximumBuffers);
        }
        this.fabric = fabric;
        this.bufferBytes = bufferBytes;
        this.buffersPerRegion = buffersPerRegion;
        this.maximumBuffers = maximumBuffers;
        this.access = Set.copyOf(access);
        this.buffers = new ShuffleBuffer[maximumBuffers];
        this.free = new int[maximumBuffers];
    }

    public int bufferBytes() {
        return bufferBytes;
    }

    public int maximumBuffers() {
        return maximumBuffers;
    }

    /** The buffer with pool index {@code index} (a request id). */
    public ShuffleBuffer buffer(int index) {
        return buffers[index];
    }

    /** Lends a buffer, registering more memory if needed; null when all {@code maximumBuffers} are lent. */
    public ShuffleBuffer borrow() {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("buffer pool is closed");
            }
            if (freeCount == 0 && registered < maximumBuffers) {
                registerRegion();
            }
            if (freeCount == 0) {
                return null;
            }
            borrows++;
            ShuffleBuffer buffer = buffers[free[--freeCount]];
            buffer.payloadLength(0);
            return buffer;
        } finally {
            lock.unlock();
        }
    }

    /** Takes a buffer back into the pool. */
    public void giveBack(ShuffleBuffer buffer) {
        lock.lock();
        try {
            if (buffers[buffer.index()] != buffer) {
                throw new IllegalArgumentException("not a buffer of this pool: " + buffer);
            }
            free[freeCount++] = buffer.index();
            returns++;
        } finally {
            lock.unlock();
        }
    }

    private void registerRegion() {
        int count = Math.min(buffersPerRegion, maximumBuffers - registered);
        MemoryRegion region = fabric.register((long) count * bufferBytes, access);
        regions.add(region);
        for (int i = 0; i < count; i++) {
            int index = registered + i;
            long offset = (long) i * bufferBytes;
            buffers[index] =
                    new ShuffleBuffer(index, region, offset, region.segment().asSlice(offset, bufferBytes));
            free[freeCount++] = index;
        }
        registered += count;
    }

    /** A snapshot of the pool's counters. */
    public Counters counters() {
        lock.lock();
        try {
            return new Counters(registered, registered - freeCount, regions.size(), borrows, returns);
        } finally {
            lock.unlock();
        }
    }

    /**
     * @param registered buffers registered so far
     * @param lent buffers in circulation at endpoints
     * @param regions memory regions registered
     * @param borrows buffers lent, in total
     * @param returns buffers given back, in total
     */
    public record Counters(int registered, int lent, int regions, long borrows, long returns) {}

    /** Deregisters every region. Buffers still lent must not be used afterwards. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            regions.forEach(MemoryRegion::close);
            regions.clear();
        } finally {
            lock.unlock();
        }
    }
}
