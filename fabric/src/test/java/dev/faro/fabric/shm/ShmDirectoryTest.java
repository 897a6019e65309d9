package dev.faro.fabric.shm;

import static dev.faro.fabric.FabricTesting.ALL_RIGHTS;
import static dev.faro.fabric.FabricTesting.connectRc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.security.auth.module.UnixSystem;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only the running user reads a node's files: directories are {@code 0700} and files {@code 0600}; and the temp
 * directory fallback is refused unless it is this user's own, private directory.
 */
class ShmDirectoryTest {

    @TempDir
    Path temp;

    @Test
    void nodeDirectoriesAreOwnerOnlyAndFilesOwnerReadWriteOnly() throws IOException {
        Path base = temp.resolve("shm");
        try (Fabric a = new ShmFabricProvider().open(config("a", base));
                Fabric b = new ShmFabricProvider().open(config("b", base))) {
            connectRc(a, b, 2, 2);
            a.register(4096, ALL_RIGHTS);
            List<Path> entries;
            try (Stream<Path> walk = Files.walk(base)) {
                entries = walk.filter(path -> !path.equals(base)).toList();
            }
            assertThat(entries).as("node directories and their files").hasSizeGreaterThan(6);
            for (Path entry : entries) {
                String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(entry));
                assertThat(mode)
                        .as("mode of %s", entry)
                        .isEqualTo(Files.isDirectory(entry) ? "rwx------" : "rw-------");
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(base)))
                    .as("a directory named by shm.directory that the node creates")
                    .isEqualTo("rwx------");
        }
    }

    private static FabricConfig config(String nodeName, Path base) {
        return FabricConfig.of("shm", nodeName).withOption("shm.directory", base.toString());
    }

    @Test
    void theFallbackIsCreatedOwnerOnlyWhenThereIsNoDevShm() throws IOException {
        Path base = ShmDirectory.base(null, temp.resolve("no-dev-shm"), temp);
        assertThat(base).isEqualTo(temp.resolve(ShmDirectory.FALLBACK_NAME));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(base)))
                .isEqualTo("rwx------");
        assertThat(ShmDirectory.base(null, temp.resolve("no-dev-shm"), temp))
                .as("found again")
                .isEqualTo(base);
    }

    @Test
    void aFallbackOwnedByAnotherUserIsRefused() throws IOException {
        assumeTrue(new UnixSystem().getUid() == 0, "needs root to give a directory to nobody");
        Path fallback = Files.createDirectory(
                temp.resolve(ShmDirectory.FALLBACK_NAME),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        UserPrincipal nobody =
                fallback.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(fallback, nobody);
        assertThatThrownBy(() -> ShmDirectory.base(null, temp.resolve("no-dev-shm"), temp))
                .isInstanceOf(FaroException.class)
                .hasMessage("refusing the shm directory " + fallback + ": it is owned by nobody, not by this user"
                        + " (uid 0); remove it, or set the option shm.directory to a directory of yours");
    }

    @Test
    void aFallbackWritableByOthersIsRefused() throws IOException {
        Path fallback = Files.createDirectory(temp.resolve(ShmDirectory.FALLBACK_NAME));
        Files.setPosixFilePermissions(fallback, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> ShmDirectory.base(null, temp.resolve("no-dev-shm"), temp))
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("it is writable by group or others (rwxrwxrwx)")
                .hasMessageNotContaining("\n");
    }

    @Test
    void aFallbackThatIsALinkIsRefused() throws IOException {
        Path mine = Files.createDirectory(
                temp.resolve("mine"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path fallback = Files.createSymbolicLink(temp.resolve(ShmDirectory.FALLBACK_NAME), mine);
        assertThat(Files.isSymbolicLink(fallback)).isTrue();
        assertThatThrownBy(() -> ShmDirectory.base(null, temp.resolve("no-dev-shm"), temp))
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("it is a symbolic link");
        assertThat(Files.exists(fallback, LinkOption.NOFOLLOW_LINKS))
                .as("left alone")
                .isTrue();
    }
}
