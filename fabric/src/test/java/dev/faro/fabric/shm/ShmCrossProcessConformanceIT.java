package dev.faro.fabric.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.CrossProcessConformanceSuite;
import dev.faro.fabric.FabricConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fabric contract for the {@code shm} provider across real processes: this JVM and {@code FabricPeerMain}
 * children share a fresh directory under {@code /dev/shm} per test, which must be empty once every node is closed
 * or killed (the survivor removes a killed peer's files; the next node sweeps stale ones).
 */
class ShmCrossProcessConformanceIT extends CrossProcessConformanceSuite {

    private Path directory;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = ShmDirectories.createFresh();
    }

    @Override
    protected FabricConfig config(String nodeName) {
        return FabricConfig.of("shm", nodeName).withOption("shm.directory", directory.toString());
    }

    @Override
    protected List<String> sharedResources() {
        return ShmDirectories.list(directory);
    }

    @Override
    protected void afterNodesClosed() {
        List<String> left = ShmDirectories.list(directory);
        ShmDirectories.deleteRecursively(directory);
        assertThat(left)
                .as("files left in %s once every node of the test closed or died", directory)
                .isEmpty();
    }
}
