package dev.faro.zerosided.nic;

import java.lang.foreign.MemorySegment;

/**
 * What a peer needs to address memory registered with a {@link SimulatedRcNic}: its remote key and the virtual address
 * range it covers. A WRITE or READ must name the key and lie wholly in {@code [baseAddress, baseAddress + length)}.
 *
 * @param remoteKey the R_Key peers put in their RETH
 * @param baseAddress the virtual address of the region's first byte
 * @param length the region's size in bytes
 * @param segment the registered memory itself (local use only)
 */
public record RegisteredRegion(int remoteKey, long baseAddress, long length, MemorySegment segment) {

    /** The virtual address of byte {@code offset} of the region. */
    public long address(long offset) {
        return baseAddress + offset;
    }
}
