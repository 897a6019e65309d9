package dev.faro.fabric.ucx;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which processes share this machine's memory: a 64-bit identity of the host (boot, host name, IPC, mount and PID
 * namespaces) that every node sends with its address, so that a node can tell a peer on the same host, one UCX
 * reaches through shared memory, from a remote one. Only used to choose an endpoint's failure handling ({@link UcxAgent#ensurePeer}):
 * UCX's shared-memory transports have no peer failure handling, so an endpoint that asks for it gets TCP even between
 * two processes of one host, with puts emulated by messages the target's worker must serve.
 *
 * <p>Coordination code; immutable.
 */
final class UcxHost {

    /** Not known (no {@code /proc}): never taken for the same host. */
    static final long UNKNOWN = 0;

    /** This process's host, computed once. */
    static final long ID = compute();

    private UcxHost() {}

    /** Whether a peer that sent {@code peerHost} runs on this host (an unknown identity never does). */
    static boolean isLocal(long peerHost) {
        return peerHost != UNKNOWN && peerHost == ID;
    }

    private static long compute() {
        try {
            String boot =
                    Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            // containers: their own namespaces; shared memory between two processes needs the same IPC namespace
            // (sysv), mount namespace (posix /dev/shm) and PID namespace (cma): any difference counts as another host,
            // which costs only UCX's TCP path, while a wrong "same host" would lose UCX's failure detection
            String namespaces = Files.readSymbolicLink(Path.of("/proc/self/ns/ipc")) + "/"
                    + Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")) + "/"
                    + Files.readSymbolicLink(Path.of("/proc/self/ns/pid"));
            long hash = 0xcbf29ce484222325L; // FNV-1a, 64 bits
            for (byte b : (boot + '/' + name + '/' + namespaces).getBytes(StandardCharsets.UTF_8)) {
                hash = (hash ^ (b & 0xFF)) * 0x100000001b3L;
            }
            return hash == UNKNOWN ? 1 : hash;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return UNKNOWN;
        }
    }
}
