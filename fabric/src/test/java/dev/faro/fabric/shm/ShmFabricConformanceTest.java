package dev.faro.fabric.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricConformanceSuite;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * The fabric contract for the {@code shm} provider, with every node in this JVM. The nodes of this class share a
 * fresh directory under {@code /dev/shm}; once a test's nodes are closed the directory must be empty (files are
 * removed on close), and it is deleted after the last test.
 */
class ShmFabricConformanceTest extends FabricConformanceSuite {

    private Path directory;

    @BeforeAll
    void createDirectory() throws IOException {
        directory = ShmDirectories.createFresh();
    }

    @Override
    protected FabricConfig config(String nodeName) {
        return FabricConfig.of("shm", nodeName).withOption("shm.directory", directory.toString());
    }

    @Override
    protected void afterNodesClosed() {
        assertThat(ShmDirectories.list(directory))
                .as("files left in %s after every node of the test closed", directory)
                .isEmpty();
    }

    @Override
    protected void afterAllNodesClosed() {
        try {
            assertThat(ShmDirectories.list(directory))
                    .as("files left in %s after every node closed", directory)
                    .isEmpty();
        } finally {
            ShmDirectories.deleteRecursively(directory);
        }
    }
}
