package dev.faro.fabric.shm;

import dev.faro.fabric.Access;
import dev.faro.fabric.spi.AbstractMemoryRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Set;

/** A registered region: a file in the node's directory, one header page and then the data. */
final class ShmMemoryRegion extends AbstractMemoryRegion {

    final ShmFabric fabric;
    final int id;
    private final Path file;
    private final Arena arena;
    private final MemorySegment header;

    ShmMemoryRegion(ShmFabric fabric, Path directory, int id, int key, long lengthBytes, Set<Access> access) {
        Path file = directory.resolve(RegionDescriptor.fileName(id));
        Arena arena = Arena.ofShared();
        MemorySegment mapped = SharedMemory.create(file, RegionDescriptor.fileLength(lengthBytes), arena);
        RegionDescriptor.initialize(mapped, key, Access.toBits(access), lengthBytes);
        super(
                mapped.asSlice(RegionDescriptor.DATA_OFFSET, lengthBytes),
                new ShmRemoteKey(fabric.node(), id, key, lengthBytes),
                key,
                lengthBytes,
                access);
        this.fabric = fabric;
        this.id = id;
        this.file = file;
        this.arena = arena;
        this.header = mapped;
    }

    @Override
    protected void withdraw() {
        RegionDescriptor.deregister(header);
    }

    @Override
    protected void free() {
        SharedMemory.deleteQuietly(file);
        arena.close();
        fabric.forget(this);
    }

    @Override
    public String toString() {
        return "ShmMemoryRegion[id=" + id + ", length=" + lengthBytes() + ", access=" + access() + "]";
    }
}
