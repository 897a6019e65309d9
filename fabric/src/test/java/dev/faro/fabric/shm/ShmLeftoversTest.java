package dev.faro.fabric.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ShmFabricProvider#removeLeftovers}: it runs after worker processes end, possibly after their owner removed
 * the shm directory; it must not create that directory again (a benchmark's private directory came back, empty,
 * after every run).
 */
class ShmLeftoversTest {

    @Test
    void aDirectoryThatIsGoneIsNotCreatedAgain(@TempDir Path temporary) {
        Path gone = temporary.resolve("removed-by-its-owner");

        int removed = new ShmFabricProvider().removeLeftovers(Map.of("shm.directory", gone.toString()));

        assertThat(removed).isZero();
        assertThat(gone).doesNotExist();
    }

    @Test
    void aSweepOfADirectoryThatIsGoneFindsNothing(@TempDir Path temporary) {
        assertThat(StaleNodeSweeper.sweep(temporary.resolve("gone"), 0)).isZero();
    }

    @Test
    void anExistingDirectoryWithoutLeftoversIsKept(@TempDir Path temporary) throws Exception {
        Path directory = Files.createDirectory(temporary.resolve("shm"));

        assertThat(new ShmFabricProvider().removeLeftovers(Map.of("shm.directory", directory.toString())))
                .isZero();
        assertThat(directory).isDirectory();
    }

    @Test
    void onlyNodeDirectoriesAreSwept(@TempDir Path base) throws Exception {
        // another run's private shm.directory under the same base, old and without a node file: not a node
        Path otherRunsBase = Files.createDirectory(base.resolve("faro-engine-test"));
        Path abandonedNode = Files.createDirectory(base.resolve(NodeDescriptor.directoryName(0x2aL)));

        assertThat(StaleNodeSweeper.sweep(base, -1)).isEqualTo(1);

        assertThat(otherRunsBase).isDirectory();
        assertThat(abandonedNode).doesNotExist();
        assertThat(NodeDescriptor.isDirectoryName("faro-000000000000002a")).isTrue();
        assertThat(NodeDescriptor.isDirectoryName("faro-000000000000002A")).isFalse();
        assertThat(NodeDescriptor.isDirectoryName("faro-shm")).isFalse();
    }
}
