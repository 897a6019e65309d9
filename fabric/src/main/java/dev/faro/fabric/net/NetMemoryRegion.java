package dev.faro.fabric.net;

import dev.faro.fabric.Access;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RegionPins;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;

/**
 * Registered memory of the {@code net} fabric: plain off-heap memory from a shared {@link Arena}, a random 32-bit key
 * and rights. Peers reach it only through this node's progress thread, which checks key, bounds and rights on every
 * access.
 *
 * <h2>Pins</h2>
 * Whoever moves bytes in or out of the region pins it first: a posted request or receive (from the post until its
 * completion), and the progress thread while a socket reads into or writes from it. {@link #close()} deregisters at
 * once (later remote accesses fail) but frees the memory only when the last pin is released, so a socket operation
 * never touches freed memory and {@code Arena.close} never meets a buffer in use ({@link RegionPins} draws the states).
 */
final class NetMemoryRegion implements MemoryRegion {

    final NetFabric fabric;
    final int id;
    final int key;
    final int accessBits;
    private final Set<Access> access;
    private final long lengthBytes;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment segment;
    private final NetRemoteKey remoteKey;
    private final RegionPins pins = new RegionPins(this::release);


    NetMemoryRegion(NetFabric fabric, int id, int key, long lengthBytes, Set<Access> access) {
        this.fabric = fabric;
        this.id = id;
        this.key = key;
        this.access = Set.copyOf(access);
        this.accessBits = Access.toBits(access);
        this.lengthBytes = lengthBytes;
        this.segment = arena.allocate(lengthBytes, lengthBytes >= 4096 ? 4096 : 64);
        this.remoteKey = new NetRemoteKey(fabric.address(), fabric.node(), id, key, lengthBytes);
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public RemoteKey remoteKey() {
        return remoteKey;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    @Override
    public Set<Access> access() {
        return access;
    }

    @Override
    public boolean isRegistered() {
        return pins.isRegistered();
    }

    boolean allows(Access right) {
        return (accessBits & right.bit()) != 0;
    }

    /** Whether {@code [offset, offset + length)} lies inside the region (overflow-safe). */
    boolean contains(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= lengthBytes - length;
    }

    /** Pins the memory; false if it is already freed. Any thread; lock-free. */
    boolean pin() {
        return pins.pin();
    }

    /** Releases a pin; the last release of a closed region frees the memory. */
    void unpin() {
        pins.unpin();
    }

    /**
     * Pins the region for a remote access if it is still registered, has {@code right} and contains the range; false
     * (and no pin held) otherwise. Progress thread only.
     */
    boolean pinFor(int expectedKey, Access right, long offset, long length) {
        if (expectedKey != key || !allows(right) || !contains(offset, length) || !pin()) {
            return false;
        }
        if (!pins.isRegistered()) {
            unpin();
            return false;
        }
        return true;
    }

    /** A new independent byte-buffer view of the whole region (at most 2 GiB), for sockets to read or write. */
    ByteBuffer newView() {
        return segment.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether {@link #newView()} covers the whole region. */
    boolean viewable() {
        return lengthBytes <= Integer.MAX_VALUE;
    }

    @Override
    public void close() {
        if (pins.markClosed()) {
            fabric.forget(this);
            pins.freeIfUnpinned();
        }
    }

    /** Frees the memory now, whatever the pins: only when no thread can use it any more (the fabric closed). */
    void forceFree() {
        pins.forceFree();
    }

    private void release() {
        arena.close();
        fabric.freed(this);
    }

    @Override
    public String toString() {
        return "NetMemoryRegion[id=" + id + ", length=" + lengthBytes + ", access=" + access + "]";
    }
}
