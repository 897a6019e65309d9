package dev.faro.fabric.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.MemoryRegion;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Importing a peer's remote key maps the peer's region at once, with this process's page tables filled
 * ({@link PageTables}), so that the first WRITEs into it fault no pages; filling them changes no byte.
 */
class ShmRemoteKeyImportTest {

    private Path directory;
    private final List<Fabric> fabrics = new ArrayList<>();

    @BeforeEach
    void createDirectory() throws IOException {
        directory = ShmDirectories.createFresh();
    }

    @AfterEach
    void closeNodes() {
        fabrics.forEach(Fabric::close);
        ShmDirectories.deleteRecursively(directory);
    }

    private ShmFabric open(String name) {
        ShmFabric fabric = (ShmFabric) new ShmFabricProvider()
                .open(FabricConfig.of("shm", name).withOption("shm.directory", directory.toString()));
        fabrics.add(fabric);
        return fabric;
    }

    @Test
    void importingAPeersKeyMapsItsRegionAtOnce() {
        ShmFabric a = open("a");
        ShmFabric b = open("b");
        MemoryRegion target = b.register(1 << 20, EnumSet.of(Access.REMOTE_WRITE));
        assertThat(a.mappedPeerFiles()).isZero();
        a.importRemoteKey(target.remoteKey().toBytes());
        assertThat(a.mappedPeerFiles()).as("b's region, mapped by the import").isEqualTo(1);
    }

    @Test
    void importingOwnKeyMapsNothing() {
        ShmFabric a = open("a");
        MemoryRegion region = a.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        a.importRemoteKey(region.remoteKey().toBytes());
        assertThat(a.mappedPeerFiles()).isZero();
    }

    @Test
    void populatingChangesNoByte() {
        try (Arena arena = Arena.ofConfined()) {
            Path file = directory.resolve("populate-test");
            MemorySegment first = SharedMemory.create(file, 5 * SharedMemory.PAGE_BYTES + 100, arena);
            for (long at = 0; at < first.byteSize(); at += 8) {
                if (at + 8 <= first.byteSize()) {
                    first.set(ValueLayout.JAVA_LONG_UNALIGNED, at, at * 31 + 7);
                }
            }
            MemorySegment second = SharedMemory.mapExisting(file, arena);
            PageTables.populate(second);
            for (long at = 0; at + 8 <= second.byteSize(); at += 8) {
                assertThat(second.get(ValueLayout.JAVA_LONG_UNALIGNED, at)).isEqualTo(at * 31 + 7);
            }
            second.set(ValueLayout.JAVA_LONG_UNALIGNED, 4 * SharedMemory.PAGE_BYTES, -1L);
            assertThat(first.get(ValueLayout.JAVA_LONG_UNALIGNED, 4 * SharedMemory.PAGE_BYTES))
                    .as("the populated mapping writes the shared file")
                    .isEqualTo(-1L);
        }
    }
}
