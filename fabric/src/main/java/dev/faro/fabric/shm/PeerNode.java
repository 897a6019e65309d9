package dev.faro.fabric.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Optional;

/**
 * This fabric's mapped view of one node's directory, its own included: the node file and, mapped on first use, the
 * region, queue-pair and completion-queue files that requests address. Mappings stay until this fabric closes, so
 * a peer that deregisters or dies never unmaps memory under a thread of ours; its files' pages live until then.
 *
 * <p>Thread-safety: lookups are lock-free reads of volatile arrays; a miss maps the file under this object's lock.
 */
final class PeerNode {

    private static final long SELF_PID = ProcessHandle.current().pid();

    final long node;
    final Path directory;
    private final Arena arena;
    private final MemorySegment nodeFile;
    private final long pid;
    private final long startMillis;

    /** Set by the progress agent once the node is found closed or dead; never cleared. */
    private volatile boolean failed;

    private volatile MemorySegment[] regions = new MemorySegment[16];
    private volatile MemorySegment[] queuePairs = new MemorySegment[16];
    private volatile MemorySegment[] completionQueues = new MemorySegment[16];

    private PeerNode(long node, Path directory, Arena arena, MemorySegment nodeFile) {
        this.node = node;
        this.directory = directory;
        this.arena = arena;
        this.nodeFile = nodeFile;
        this.pid = NodeDescriptor.pid(nodeFile);
        this.startMillis = NodeDescriptor.startMillis(nodeFile);
    }

    /** Maps the node file of {@code node} under {@code base}; empty if the node does not exist (or never did). */
    static Optional<PeerNode> open(Path base, long node) {
        Path directory = base.resolve(NodeDescriptor.directoryName(node));
        Arena arena = Arena.ofShared();
        MemorySegment nodeFile = SharedMemory.mapExisting(directory.resolve(NodeDescriptor.FILE_NAME), arena);
        if (nodeFile == null || !NodeDescriptor.isValid(nodeFile)) {
            arena.close();
            return Optional.empty();
        }
        return Optional.of(new PeerNode(node, directory, arena, nodeFile));
    }

    boolean isFailed() {
        return failed;
    }

    /** Whether the node's fabric is still open and its process alive. Coordination code: reads /proc. */
    boolean checkAlive() {
        if (failed) {
            return false;
        }
        if (NodeDescriptor.isClosed(nodeFile)) {
            return false;
        }
        return isProcessAlive(pid, startMillis);
    }

    /** Whether the node's fabric closed cleanly (as opposed to its process dying). */
    boolean isClosed() {
        return NodeDescriptor.isClosed(nodeFile);
    }

    void markFailed() {
        failed = true;
    }

    static boolean isProcessAlive(long pid, long startMillis) {
        if (pid == SELF_PID) {
            return true;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        if (startMillis == 0) {
            return true;
        }
        return handle.get().info().startInstant().map(i -> Math.abs(i.toEpochMilli() - startMillis) < 2000).orElse(true);
    }

    /** The file of region {@code id}, or null if it does not exist. Data path after the first call per id. */
    MemorySegment region(int id) {
        MemorySegment[] current = regions;
        if (id >= 0 && id < current.length && current[id] != null) {
            return current[id];
        }
        return map(Kind.REGION, id);
    }

    /** The file of queue pair {@code qpn}, or null if it does not exist. */
    MemorySegment queuePair(int qpn) {
        MemorySegment[] current = queuePairs;
        if (qpn >= 0 && qpn < current.length && current[qpn] != null) {
            return current[qpn];
        }
        return map(Kind.QUEUE_PAIR, qpn);
    }

    /** The file of completion queue {@code id}, or null if it does not exist. */
    MemorySegment completionQueue(int id) {
        MemorySegment[] current = completionQueues;
        if (id >= 0 && id < current.length && current[id] != null) {
            return current[id];
        }
        return map(Kind.COMPLETION_QUEUE, id);
    }

    private enum Kind {
        REGION,
        QUEUE_PAIR,
        COMPLETION_QUEUE
    }

    private synchronized MemorySegment map(Kind kind, int id) {
        if (id < 0) {
            return null;
        }
        MemorySegment[] table = switch (kind) {
            case REGION -> regions;
            case QUEUE_PAIR -> queuePairs;
            case COMPLETION_QUEUE -> completionQueues;
        };
        if (id < table.length && table[id] != null) {
            return table[id];
        }
        String name = switch (kind) {
            case REGION -> RegionDescriptor.fileName(id);
            case QUEUE_PAIR -> QueuePairDescriptor.fileName(id);
            case COMPLETION_QUEUE -> CompletionQueueDescriptor.fileName(id);
        };
        MemorySegment file;
        try {
            file = SharedMemory.mapExisting(directory.resolve(name), arena);
        } catch (IllegalStateException closed) {
            return null; // this fabric is closing
        }
        if (file == null) {
            return null;
        }
        MemorySegment[] grown = id < table.length ? table.clone() : java.util.Arrays.copyOf(table, Math.max(id + 1, table.length * 2));
        grown[id] = file;
        switch (kind) {
            case REGION -> regions = grown;
            case QUEUE_PAIR -> queuePairs = grown;
            case COMPLETION_QUEUE -> completionQueues = grown;
        }
        return file;
    }

    /** Unmaps everything. Only when no thread of this fabric uses the mappings any more. */
    void close() {
        arena.close();
    }
}
