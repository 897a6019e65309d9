package dev.faro.fabric.ucx;

import dev.faro.fabric.Access;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RegionPins;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.MemorySegment;
import java.util.Set;
import org.openucx.jucx.ucp.UcpMemory;

/**
 * Registered memory of the {@code ucx} fabric: allocated and registered by UCX in one step ({@code ucp_mem_map} with
 * {@code UCP_MEM_MAP_ALLOCATE}, on the progress thread), so every transport can reach it, shared-memory ones
 * included; a random 32-bit key and the rights travel in the {@link UcxRemoteKey}.
 *
 * <h2>Close</h2>
 * UCX cannot revoke an rkey a peer holds, so closing is a handshake: the region stops being registered, every peer
 * node this node knows is told (REVOKE) and answers after it flushed its endpoint (REVOKE_ACK), and its progress
 * thread refuses that key from then on with REMOTE_ACCESS_ERROR. {@code close()} waits for the answers (bounded by
 * the peer timeout); the memory is unmapped once no posted request or receive of this node pins it
 * ({@link RegionPins}).
 */
final class UcxMemoryRegion implements MemoryRegion {

    final UcxFabric fabric;
    final int id;
    final int key;
    final int accessBits;
    private final Set<Access> access;
    private final long lengthBytes;
    final UcpMemory memory;
    private final MemorySegment segment;
    private final UcxRemoteKey remoteKey;
    private final RegionPins pins = new RegionPins(this::release);


    UcxMemoryRegion(UcxFabric fabric, int id, int key, long lengthBytes, Set<Access> access, UcpMemory memory) {
        this.fabric = fabric;
        this.id = id;
        this.key = key;
        this.access = Set.copyOf(access);
        this.accessBits = Access.toBits(access);
        this.lengthBytes = lengthBytes;
        this.memory = memory;
        this.segment = MemorySegment.ofAddress(memory.getAddress()).reinterpret(lengthBytes);
        byte[] packed = new byte[memory.getRemoteKeyBuffer().remaining()];
        memory.getRemoteKeyBuffer().get(packed);
        this.remoteKey = new UcxRemoteKey(fabric.node(), id, key, accessBits, lengthBytes, memory.getAddress(), packed);
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

    long address() {
        return memory.getAddress();
    }

    boolean allows(Access right) {
        return (accessBits & right.bit()) != 0;
    }

    /** Pins the memory; false if it is already unmapped. Any thread; lock-free. */
    boolean pin() {
        return pins.pin();
    }

    /** Releases a pin; the last release of a closed region unmaps it. */
    void unpin() {
        pins.unpin();
    }

    @Override
    public void close() {
        if (pins.markClosed()) {
            fabric.revoke(this);
            pins.freeIfUnpinned();
        }
    }

    /** Marks the region closed without telling peers (the fabric closes). */
    void markClosed() {
        pins.markClosed();
    }

    private void release() {
        fabric.unmap(this);
    }

    @Override
    public String toString() {
        return "UcxMemoryRegion[id=" + id + ", length=" + lengthBytes + ", access=" + access + "]";
    }
}
