package dev.faro.fabric.shm;

import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Files mapped into memory, and the ordered accessors every descriptor uses on them. Coordination code, except for
 * the static accessors, which are data path.
 */
final class SharedMemory {

    /** Ordered access to 8-byte words of a mapped segment: {@code (MemorySegment, long offset)}. Must be 8-aligned. */
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** Ordered access to 4-byte words of a mapped segment: {@code (MemorySegment, long offset)}. Must be 4-aligned. */
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    static final long PAGE_BYTES = 4096;

    private SharedMemory() {}

    private static final Set<StandardOpenOption> CREATE_OPTIONS =
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);

    /**
     * Creates {@code file}, readable and writable by this user only, with {@code lengthBytes} zero bytes and maps it
     * into {@code arena}.
     */
    static MemorySegment create(Path file, long lengthBytes, Arena arena) {
        try (FileChannel channel = FileChannel.open(file, CREATE_OPTIONS, ShmDirectory.OWNER_ONLY_FILE)) {
            channel.truncate(lengthBytes); // no-op on a new file; keeps intent explicit
            if (lengthBytes > 0) {
                channel.position(lengthBytes - 1);
                channel.write(java.nio.ByteBuffer.wrap(new byte[1]));
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, lengthBytes, arena);
        } catch (IOException e) {
            throw new FaroException(FaroException.Category.IO, "cannot create shared file " + file + ": " + e, e);
        }
    }

    /** Maps an existing file whole into {@code arena}, or returns null if it does not exist. */
    static MemorySegment mapExisting(Path file, Arena arena) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size(), arena);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new FaroException(FaroException.Category.IO, "cannot map shared file " + file + ": " + e, e);
        }
    }

    /**
     * Whether {@code file}'s mapping is still there: false once its arena closed (for a peer's file: its owner retired
     * it, see {@link PeerNode}). Data path: allocation-free, one field read.
     */
    static boolean isMapped(MemorySegment file) {
        return file.scope().isAlive();
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // best effort: a stale file is removed by the next fabric that starts in this directory
        }
    }

    /**
     * Deletes a directory and everything in it, ignoring files that vanish meanwhile. Files go first, a node file
     * ({@link NodeDescriptor#FILE_NAME}) last of them, then the directories, deepest first: a node killed while it
     * removes its directory (SIGKILL after a SIGTERM it was slow to act on) leaves its node file, marked closed, which
     * the next {@link StaleNodeSweeper} pass removes at once, and never a directory without one, which a sweep must
     * leave alone for a while (it may be a node being created).
     */
    static void deleteTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.comparing((Path path) -> Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
                            .thenComparing(path -> path.getFileName().toString().equals(NodeDescriptor.FILE_NAME))
                            .thenComparing(Comparator.reverseOrder()))
                    .forEach(SharedMemory::deleteQuietly);
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // raced with another deleter; whatever is left goes at the next start
        }
    }

    /**
     * Copies {@code lengthBytes} so that a reader who polls the destination's last 8-byte word with acquire
     * semantics sees every other byte once it sees that word: everything but the last word first, then a release
     * fence, then the last word (as one 8-byte store when the destination end is 8-aligned).
     */
    static void copyLastWordLast(
            MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset, long lengthBytes) {
        if (lengthBytes <= 0) {
            return;
        }
        long head = lengthBytes - Math.min(8, lengthBytes);
        if (head > 0) {
            MemorySegment.copy(source, sourceOffset, target, targetOffset, head);
        }
        VarHandle.releaseFence();
        long lastOffset = targetOffset + head;
        if (lengthBytes >= 8 && (target.address() + lastOffset & 7) == 0) {
            long word = source.get(ValueLayout.JAVA_LONG_UNALIGNED, sourceOffset + head);
            LONG.setRelease(target, lastOffset, word);
        } else {
            MemorySegment.copy(source, sourceOffset + head, target, lastOffset, lengthBytes - head);
        }
    }
}
