package dev.faro.fabric.shm;

import java.lang.foreign.MemorySegment;

/**
 * The node file ({@code <directory>/faro-<node hex>/node}): who owns a node directory and whether it is alive.
 *
 * <pre>
 *  0               4               8                               16
 *  +---------------+---------------+-------------------------------+
 *  |     magic     |    version    |            node id            |
 *  +---------------+---------------+-------------------------------+
 *  |              pid              |  process start (epoch millis) |  16..31
 *  +-------------------------------+---------------+---------------+
 *  |    closed (int, release)      |   (unused)    |                  32..39
 *  +-------------------------------+---------------+---------------+
 *  |  ingress free (ns, CAS)       |  egress free (ns, CAS)        |  40..55
 *  +-------------------------------+-------------------------------+
 * </pre>
 *
 * <p>Written once by the owning fabric before any other file of the node exists, except {@code closed}, which the
 * owner sets with release semantics when it closes. Read by peers (acquire on {@code closed}) to detect a closed
 * node, and by the stale-file sweep, which compares {@code pid} and the process start time with the live processes.
 * The two last words are used only by the contention model
 * ({@link PortContention}): when this node's switch output port and its link into the switch are free again, in
 * {@link System#nanoTime()}; every node's posting threads advance them with CAS. Little-endian (native order on the
 * supported platforms).
 */
final class NodeDescriptor {

    static final int MAGIC = 0x4641524e; // "FARN"
    static final int VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long NODE_OFFSET = 8;
    static final long PID_OFFSET = 16;
    static final long START_MILLIS_OFFSET = 24;
    static final long CLOSED_OFFSET = 32;
    static final long INGRESS_FREE_OFFSET = 40;
    static final long EGRESS_FREE_OFFSET = 48;
    static final long LENGTH = 64;

    static final String FILE_NAME = "node";

    private NodeDescriptor() {}

    static void initialize(MemorySegment node, long nodeId, long pid, long startMillis) {
        node.set(java.lang.foreign.ValueLayout.JAVA_LONG, NODE_OFFSET, nodeId);
        node.set(java.lang.foreign.ValueLayout.JAVA_LONG, PID_OFFSET, pid);
        node.set(java.lang.foreign.ValueLayout.JAVA_LONG, START_MILLIS_OFFSET, startMillis);
        node.set(java.lang.foreign.ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
        SharedMemory.INT.setRelease(node, MAGIC_OFFSET, MAGIC);
    }

    static boolean isValid(MemorySegment node) {
        return node.byteSize() >= LENGTH && (int) SharedMemory.INT.getAcquire(node, MAGIC_OFFSET) == MAGIC;
    }

    static long pid(MemorySegment node) {
        return node.get(java.lang.foreign.ValueLayout.JAVA_LONG, PID_OFFSET);
    }

    static long startMillis(MemorySegment node) {
        return node.get(java.lang.foreign.ValueLayout.JAVA_LONG, START_MILLIS_OFFSET);
    }

    static boolean isClosed(MemorySegment node) {
        return (int) SharedMemory.INT.getAcquire(node, CLOSED_OFFSET) != 0;
    }

    static void markClosed(MemorySegment node) {
        SharedMemory.INT.setRelease(node, CLOSED_OFFSET, 1);
    }

    static long ingressFree(MemorySegment node) {
        return (long) SharedMemory.LONG.getVolatile(node, INGRESS_FREE_OFFSET);
    }

    static boolean advanceIngress(MemorySegment node, long expected, long value) {
        return SharedMemory.LONG.compareAndSet(node, INGRESS_FREE_OFFSET, expected, value);
    }

    static long egressFree(MemorySegment node) {
        return (long) SharedMemory.LONG.getVolatile(node, EGRESS_FREE_OFFSET);
    }

    static boolean advanceEgress(MemorySegment node, long expected, long value) {
        return SharedMemory.LONG.compareAndSet(node, EGRESS_FREE_OFFSET, expected, value);
    }

    /** The directory name of a node: {@code faro-} and the node id in 16 hex digits. */
    static String directoryName(long nodeId) {
        return "faro-" + String.format("%016x", nodeId);
    }

    /**
     * Whether {@code name} is a node's directory name ({@link #directoryName}); other {@code faro-*} entries of the
     * same base (another program's {@code shm.directory}, e.g. {@code /dev/shm/faro-engine-test}) are not nodes.
     */
    static boolean isDirectoryName(String name) {
        if (name.length() != "faro-".length() + 16 || !name.startsWith("faro-")) {
            return false;
        }
        for (int i = "faro-".length(); i < name.length(); i++) {
            if (Character.digit(name.charAt(i), 16) < 0 || Character.isUpperCase(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
