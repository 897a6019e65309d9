package dev.faro.join.rma;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.PlainSegments;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An RMA window (MPI's {@code MPI_Win_create}): at every rank of a group, one registered region, and at each rank the
 * keys of every other rank's region, so that any {@link RmaLane} can put into any rank's window by offset. Created
 * collectively by {@link RmaGroup#createWindow}; the ranks' lengths may differ.
 *
 * <p>Thread-safe after creation (immutable references; the region's bytes are the application's business).
 */
public final class RmaWindow implements AutoCloseable {

    private final MemoryRegion region;
    /** By rank; this rank's own key at its index. */
    private final RemoteKey[] keys;
    /** The region's bytes as a plain native segment ({@link PlainSegments}). */
    private final MemorySegment segment;

    RmaWindow(MemoryRegion region, RemoteKey[] keys) {
        this.region = Objects.requireNonNull(region, "region is null");
        this.keys = keys.clone();
        this.segment = PlainSegments.of(region.segment());
    }

    /** This rank's part of the window: the registered region peers put into. */
    public MemoryRegion region() {
        return region;
    }

    /** This rank's bytes, as a plain native segment ({@link PlainSegments}). */
    public MemorySegment segment() {
        return segment;
    }

    /** The key of {@code rank}'s part. */
    public RemoteKey key(int rank) {
        return keys[rank];
    }

    /** The length of {@code rank}'s part, in bytes. */
    public long lengthBytes(int rank) {
        return keys[rank].lengthBytes();
    }

    /** Deregisters this rank's part; peers' later puts into it fail. Idempotent. */
    @Override
    public void close() {
        region.close();
    }
}
