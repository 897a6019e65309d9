package dev.faro.fabric.shm;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Removes node directories whose owner died without closing (SIGKILL, a crash): their node file names a process that
 * no longer runs, or started at another time (a reused pid). Directories without a readable node file are removed
 * once they are older than a grace period, so a node that is just being created is left alone. Only entries named
 * like a node's directory ({@code faro-} and 16 hex digits) are considered.
 */
final class StaleNodeSweeper {

    private static final System.Logger LOG = System.getLogger(StaleNodeSweeper.class.getName());

    private StaleNodeSweeper() {}

    /** Sweeps {@code base}; returns the number of directories removed. */
    static int sweep(Path base, long unreadableGraceMillis) {
        int removed = 0;
        // only node directories: a base such as /dev/shm also holds other programs' (and other Faro runs' own
        // shm.directory) faro-* directories, which have no node file of their own and must not be swept
        try (DirectoryStream<Path> nodes = Files.newDirectoryStream(
                base,
                entry -> NodeDescriptor.isDirectoryName(entry.getFileName().toString()))) {
            for (Path directory : nodes) {
                if (Files.isDirectory(directory) && isStale(directory, unreadableGraceMillis)) {
                    SharedMemory.deleteTree(directory);
                    LOG.log(Level.INFO, "removed stale shm node directory {0}", directory);
                    removed++;
                }
            }
        } catch (NoSuchFileException gone) {
            // the base directory was removed meanwhile: nothing is left to sweep
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot sweep stale shm directories in {0}: {1}", base, e);
        }
        return removed;
    }

    private static boolean isStale(Path directory, long unreadableGraceMillis) {
        ByteBuffer header = ByteBuffer.allocate((int) NodeDescriptor.LENGTH).order(ByteOrder.nativeOrder());
        try (FileChannel channel =
                FileChannel.open(directory.resolve(NodeDescriptor.FILE_NAME), StandardOpenOption.READ)) {
            while (header.hasRemaining() && channel.read(header) > 0) {
                // read the whole header
            }
        } catch (IOException e) {
            header.position(0);
        }
        if (header.position() < NodeDescriptor.LENGTH
                || header.getInt((int) NodeDescriptor.MAGIC_OFFSET) != NodeDescriptor.MAGIC) {
            try {
                long ageMillis = System.currentTimeMillis()
                        - Files.getLastModifiedTime(directory).toMillis();
                return ageMillis > unreadableGraceMillis;
            } catch (IOException e) {
                return false;
            }
        }
        long pid = header.getLong((int) NodeDescriptor.PID_OFFSET);
        long startMillis = header.getLong((int) NodeDescriptor.START_MILLIS_OFFSET);
        boolean closed = header.getInt((int) NodeDescriptor.CLOSED_OFFSET) != 0;
        return closed && pid != ProcessHandle.current().pid() || !PeerNode.isProcessAlive(pid, startMillis);
    }
}
