package dev.faro.fabric;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * Registered memory: allocated and registered in one step by {@link Fabric#register}, so that local requests and
 * peers (through its {@link #remoteKey()}) can address it. Closing it deregisters and frees it; peers' accesses then
 * fail with {@link CompletionStatus#REMOTE_ACCESS_ERROR}, and this object's {@link #segment()} may no longer be used.
 */
public interface MemoryRegion extends AutoCloseable {

    /** The registered bytes, {@link #lengthBytes()} long, aligned to at least 64 bytes. */
    MemorySegment segment();

    /** The key peers use to address this region. */
    RemoteKey remoteKey();

    long lengthBytes();

    Set<Access> access();

    /** False once closed. */
    boolean isRegistered();

    /** Deregisters and frees the region. Idempotent. */
    @Override
    void close();
}
