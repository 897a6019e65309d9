package dev.faro.fabric.shm;

import com.sun.security.auth.module.UnixSystem;
import dev.faro.fabric.FaroException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where {@code shm} nodes keep their files, and who may read them. Registered memory holds live shuffle data of the
 * user who runs the cluster, so every node directory is created {@code 0700} and every file {@code 0600}, with those
 * modes from the start (an attribute of the creating call, never a chmod afterwards).
 *
 * <p>The base directory is the option {@code shm.directory} (created {@code 0700} if missing), else {@code /dev/shm},
 * else {@code faro-shm} in the temp directory. That fallback has a fixed name in a directory everyone can write, so
 * another user could have created it first: it is used only when it is a real directory (not a link) owned by this
 * user and not writable by group or others; otherwise opening a node fails with a one-line error.
 *
 * <p>Coordination code.
 */
final class ShmDirectory {

    /** Node directories: {@code rwx------}. */
    static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    /** Region, queue-pair, completion-queue and node files: {@code rw-------}. */
    static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    /** The name of the fallback base directory in the temp directory. */
    static final String FALLBACK_NAME = "faro-shm";

    private ShmDirectory() {}

    /** The base directory: {@code option} if not null, else the default; created if missing. */
    static Path base(String option) {
        return base(option, Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** {@link #base(String)} with the places of the default given (for tests). */
    static Path base(String option, Path devShm, Path temporaryDirectory) {
        if (option != null) {
            Path base = Path.of(option);
            try {
                Files.createDirectories(base, OWNER_ONLY_DIRECTORY);
            } catch (IOException e) {
                throw new FaroException(
                        FaroException.Category.IO,
                        "cannot create the shm directory " + base + " (option shm.directory): " + e,
                        e);
            }
            return base;
        }
        if (Files.isDirectory(devShm) && Files.isWritable(devShm)) {
            return devShm;
        }
        Path fallback = temporaryDirectory.resolve(FALLBACK_NAME);
        try {
            Files.createDirectory(fallback, OWNER_ONLY_DIRECTORY);
        } catch (FileAlreadyExistsException e) {
            // someone's, maybe ours from an earlier run: checked below
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "cannot create the shm directory " + fallback + " (" + devShm + " is not usable): " + e,
                    e);
        }
        checkPrivate(fallback);
        return fallback;
    }

    /** Refuses {@code directory} unless it is a directory, not a link, owned by this user and writable only by it. */
    static void checkPrivate(Path directory) {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(directory, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new FaroException(
                    FaroException.Category.IO, "cannot check the shm directory " + directory + ": " + e, e);
        }
        String problem = null;
        if (!attributes.isDirectory()) {
            problem = attributes.isSymbolicLink() ? "it is a symbolic link" : "it is not a directory";
        } else if (ownerUid(directory) != currentUid()) {
            problem =
                    "it is owned by " + attributes.owner().getName() + ", not by this user (uid " + currentUid() + ")";
        } else if (attributes.permissions().contains(PosixFilePermission.GROUP_WRITE)
                || attributes.permissions().contains(PosixFilePermission.OTHERS_WRITE)) {
            problem = "it is writable by group or others (" + PosixFilePermissions.toString(attributes.permissions())
                    + ")";
        }
        if (problem != null) {
            throw new FaroException(
                    FaroException.Category.IO,
                    "refusing the shm directory " + directory + ": " + problem
                            + "; remove it, or set the option shm.directory to a directory of yours");
        }
    }

    private static long ownerUid(Path directory) {
        try {
            return ((Number) Files.getAttribute(directory, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
        } catch (IOException e) {
            throw new FaroException(FaroException.Category.IO, "cannot check the owner of " + directory + ": " + e, e);
        }
    }

    private static long currentUid() {
        return new UnixSystem().getUid();
    }
}
