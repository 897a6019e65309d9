package dev.faro.fabric.net;

import dev.faro.fabric.Access;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Registered memory of the {@code net} fabric: plain off-heap memory from a shared {@link Arena}, a random 32-bit key
 * and rights. Peers reach it only through this node's progress thread, which checks key, bounds and rights on every
 * access.
 *
 * <h2>Pins</h2>
 * Whoever moves bytes in or out of the region pins it first: a posted request or receive (from the post until its
 * completion), and the progress thread while a socket reads into or writes from it. {@link #close()} deregisters at
 * once (later remote accesses fail) but frees the memory only when the last pin is released, so a socket operation
 * never touches freed memory and {@code Arena.close} never meets a buffer in use.
 *
 * <pre>
 *  pins:  n &gt;= 0  registered or closing, n users        -1  freed (terminal)
 *  pin():    CAS n -&gt; n + 1 while n &gt;= 0                 unpin(): n - 1; the last unpin of a closed region frees
 *  close():  registered := false; CAS 0 -&gt; -1 frees now, otherwise the last unpin does
 * </pre>
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
    private final AtomicInteger pins = new AtomicInteger();

    /** False once closed; written by the closing thread, read by the progress thread on every remote access. */
    private volatile boolean registered = true;

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
        return registered;
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
        while (true) {
            int current = pins.get();
            if (current < 0) {
                return false;
            }
            if (pins.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    /** Releases a pin; the last release of a closed region frees the memory. */
    void unpin() {
        if (pins.decrementAndGet() == 0 && !registered) {
            free();
        }
    }

    /**
     * Pins the region for a remote access if it is still registered, has {@code right} and contains the range; false
     * (and no pin held) otherwise. Progress thread only.
     */
    boolean pinFor(int expectedKey, Access right, long offset, long length) {
        if (expectedKey != key || !allows(right) || !contains(offset, length) || !pin()) {
            return false;
        }
        if (!registered) {
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
        synchronized (this) {
            if (!registered) {
                return;
            }
            registered = false;
        }
        fabric.forget(this);
        free();
    }

    /** Frees the memory now, whatever the pins: only when no thread can use it any more (the fabric closed). */
    void forceFree() {
        registered = false;
        if (pins.getAndSet(-1) >= 0) {
            arena.close();
            fabric.freed(this);
        }
    }

    private void free() {
        if (pins.compareAndSet(0, -1)) {
            arena.close();
            fabric.freed(this);
        }
    }

    @Override
    public String toString() {
        return "NetMemoryRegion[id=" + id + ", length=" + lengthBytes + ", access=" + access + "]";
    }
}
