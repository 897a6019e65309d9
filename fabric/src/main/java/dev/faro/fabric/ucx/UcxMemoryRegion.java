package dev.faro.fabric.ucx;

import dev.faro.fabric.Access;
import dev.faro.fabric.spi.AbstractMemoryRegion;
import dev.faro.fabric.spi.RegionPins;
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
final class UcxMemoryRegion extends AbstractMemoryRegion {

    final UcxFabric fabric;
    final int id;
    final UcpMemory memory;
    /** The registration's {@code ucp_mem_h}, for {@link UcpRequests}. */
    final long memoryHandle;

    UcxMemoryRegion(UcxFabric fabric, int id, int key, long lengthBytes, Set<Access> access, UcpMemory memory) {
        byte[] packed = new byte[memory.getRemoteKeyBuffer().remaining()];
        memory.getRemoteKeyBuffer().get(packed);
        UcxRemoteKey remoteKey = new UcxRemoteKey(
                fabric.node(), id, key, Access.toBits(access), lengthBytes, memory.getAddress(), packed);
        super(
                MemorySegment.ofAddress(memory.getAddress()).reinterpret(lengthBytes),
                remoteKey,
                key,
                lengthBytes,
                access);
        this.fabric = fabric;
        this.id = id;
        this.memory = memory;
        this.memoryHandle = memory.getNativeId();
    }

    long address() {
        return memory.getAddress();
    }

    /** Marks the region closed without telling peers (the fabric closes). */
    void markClosed() {
        pins().markClosed();
    }

    @Override
    protected void withdraw() {
        fabric.revoke(this);
    }

    @Override
    protected void free() {
        fabric.unmap(this);
    }

    @Override
    public String toString() {
        return "UcxMemoryRegion[id=" + id + ", length=" + lengthBytes() + ", access=" + access() + "]";
    }
}
