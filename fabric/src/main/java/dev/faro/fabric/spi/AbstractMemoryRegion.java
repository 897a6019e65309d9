package dev.faro.fabric.spi;

import dev.faro.fabric.Access;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * What every provider's {@link MemoryRegion} keeps the same way: its segment, remote key, length, rights and key, the
 * check a remote access makes against them, and the registered/pinned/freed life cycle of {@link RegionPins}. For
 * providers (net, shm, ucx): a subclass says only how a closed region is withdrawn from peers and how its memory is
 * freed.
 *
 * <p>{@link #close()} ends the registration once, then {@link #withdraw()}s the region and frees it when nothing pins
 * it (at once, or on the last {@link #unpin()}). A provider that never pins frees on close.
 */
public abstract class AbstractMemoryRegion implements MemoryRegion {

    private final MemorySegment segment;
    private final RemoteKey remoteKey;
    private final long lengthBytes;
    private final Set<Access> access;
    private final int accessBits;
    private final int key;
    private final RegionPins pins = new RegionPins(this::free);

    /** {@code key} is the secret peers must present; {@code segment} is {@code lengthBytes} long. */
    protected AbstractMemoryRegion(
            MemorySegment segment, RemoteKey remoteKey, int key, long lengthBytes, Set<Access> access) {
        this.segment = segment;
        this.remoteKey = remoteKey;
        this.key = key;
        this.lengthBytes = lengthBytes;
        this.access = Set.copyOf(access);
        this.accessBits = Access.toBits(access);
    }

    @Override
    public final MemorySegment segment() {
        return segment;
    }

    @Override
    public final RemoteKey remoteKey() {
        return remoteKey;
    }

    @Override
    public final long lengthBytes() {
        return lengthBytes;
    }

    @Override
    public final Set<Access> access() {
        return access;
    }

    @Override
    public final boolean isRegistered() {
        return pins.isRegistered();
    }

    /** Whether the region grants {@code right}. */
    public final boolean allows(Access right) {
        return (accessBits & right.bit()) != 0;
    }

    /** Whether {@code [offset, offset + length)} lies inside the region (overflow-safe). */
    public final boolean contains(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= lengthBytes - length;
    }

    /**
     * Whether a remote access presenting {@code expectedKey} may use {@code right} on {@code [offset, offset + length)}:
     * the key matches, the right is granted and the range lies inside. Says nothing of registration or pins.
     */
    public final boolean admits(int expectedKey, Access right, long offset, long length) {
        return expectedKey == key && allows(right) && contains(offset, length);
    }

    /** Pins the memory; false if it is already freed. Any thread; lock-free. */
    public final boolean pin() {
        return pins.pin();
    }

    /** Releases a pin; the last release of a closed region frees the memory. */
    public final void unpin() {
        pins.unpin();
    }

    @Override
    public final void close() {
        if (pins.markClosed()) {
            withdraw();
            pins.freeIfUnpinned();
        }
    }

    /** The life cycle, for a provider's fabric-close paths ({@link RegionPins#markClosed}, {@link RegionPins#forceFree}). */
    protected final RegionPins pins() {
        return pins;
    }

    /** Withdraws the region from peers and from the provider's tables; once, on the closing thread, before the free. */
    protected abstract void withdraw();

    /** Frees the memory; exactly once, on the thread that drops the last use. */
    protected abstract void free();
}
