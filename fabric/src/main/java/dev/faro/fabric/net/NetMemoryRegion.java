package dev.faro.fabric.net;

import dev.faro.fabric.Access;
import dev.faro.fabric.spi.AbstractMemoryRegion;
import dev.faro.fabric.spi.RegionPins;
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
final class NetMemoryRegion extends AbstractMemoryRegion {

    final NetFabric fabric;
    final int id;
    private final Arena arena;

    NetMemoryRegion(NetFabric fabric, int id, int key, long lengthBytes, Set<Access> access) {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(lengthBytes, lengthBytes >= 4096 ? 4096 : 64);
        super(
                segment,
                new NetRemoteKey(fabric.address(), fabric.node(), id, key, lengthBytes),
                key,
                lengthBytes,
                access);
        this.arena = arena;
        this.fabric = fabric;
        this.id = id;
    }

    /**
     * Pins the region for a remote access if it is still registered, has {@code right} and contains the range; false
     * (and no pin held) otherwise. Progress thread only.
     */
    boolean pinFor(int expectedKey, Access right, long offset, long length) {
        if (!admits(expectedKey, right, offset, length) || !pin()) {
            return false;
        }
        if (!isRegistered()) {
            unpin();
            return false;
        }
        return true;
    }

    /** A new independent byte-buffer view of the whole region (at most 2 GiB), for sockets to read or write. */
    ByteBuffer newView() {
        return segment().asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Whether {@link #newView()} covers the whole region. */
    boolean viewable() {
        return lengthBytes() <= Integer.MAX_VALUE;
    }

    /** Frees the memory now, whatever the pins: only when no thread can use it any more (the fabric closed). */
    void forceFree() {
        pins().forceFree();
    }

    @Override
    protected void withdraw() {
        fabric.forget(this);
    }

    @Override
    protected void free() {
        arena.close();
        fabric.freed(this);
    }

    @Override
    public String toString() {
        return "NetMemoryRegion[id=" + id + ", length=" + lengthBytes() + ", access=" + access() + "]";
    }
}
