package dev.faro.fabric.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Fresh test directories under {@code /dev/shm} (or the temp dir where there is none), listed and deleted. */
final class ShmDirectories {

    private ShmDirectories() {}

    /** A new, empty directory for one test class or test. */
    static Path createFresh() throws IOException {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "faro-test")
                : Files.createTempDirectory("faro-test");
    }

    /** Every file and directory below {@code directory} (relative paths, sorted); empty if it does not exist. */
    static List<String> list(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        for (int attempt = 0; ; attempt++) {
            try (Stream<Path> paths = Files.walk(directory)) {
                return paths.filter(path -> !path.equals(directory))
                        .map(path -> directory.relativize(path).toString())
                        .sorted()
                        .toList();
            } catch (NoSuchFileException | UncheckedIOException e) {
                if (attempt == 10) { // files keep vanishing while we walk: someone is still deleting
                    throw new IllegalStateException("cannot list " + directory, e);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Deletes {@code directory} and everything below it; quiet if it is gone. */
    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + directory, e);
        }
    }
}
