package dev.faro.fabric.shm;

import dev.faro.fabric.Access;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.RemoteKey;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Set;

/** A registered region: a file in the node's directory, one header page and then the data. */
final class ShmMemoryRegion implements MemoryRegion {

    final ShmFabric fabric;
    final int id;
    final int accessBits;
    private final Set<Access> access;
    private final long lengthBytes;
    private final Path file;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment header;
    private final MemorySegment data;
    private final ShmRemoteKey remoteKey;
    private volatile boolean registered = true;

    ShmMemoryRegion(ShmFabric fabric, Path directory, int id, int key, long lengthBytes, Set<Access> access) {
        this.fabric = fabric;
        this.id = id;
        this.access = Set.copyOf(access);
        this.accessBits = Access.toBits(access);
        this.lengthBytes = lengthBytes;
        this.file = directory.resolve(RegionDescriptor.fileName(id));
        MemorySegment mapped = SharedMemory.create(file, RegionDescriptor.fileLength(lengthBytes), arena);
        RegionDescriptor.initialize(mapped, key, accessBits, lengthBytes);
        this.header = mapped;
        this.data = mapped.asSlice(RegionDescriptor.DATA_OFFSET, lengthBytes);
        this.remoteKey = new ShmRemoteKey(fabric.node(), id, key, lengthBytes);
    }

    @Override
    public MemorySegment segment() {
        return data;
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

    @Override
    public void close() {
        synchronized (this) {
            if (!registered) {
                return;
            }
            registered = false;
        }
        RegionDescriptor.deregister(header);
        SharedMemory.deleteQuietly(file);
        arena.close();
        fabric.forget(this);
    }

    @Override
    public String toString() {
        return "ShmMemoryRegion[id=" + id + ", length=" + lengthBytes + ", access=" + access + "]";
    }
}
