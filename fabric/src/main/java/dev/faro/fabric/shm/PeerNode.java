package dev.faro.fabric.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Optional;

/**
 * This fabric's mapped view of one node's directory, its own included: the node file and, mapped on first use, the
 * region, queue-pair and completion-queue files that requests address, each file in its own arena ({@link
 * MappedFiles}).
 *
 * <p>Mappings do not outlive their use: the fabric's progress agent calls {@link #releaseRetired} every liveness
 * interval, which unmaps the files whose owner retired them (a region deregistered, a queue pair or completion queue
 * closed: the owner writes that into the file's header before it deletes the file), and {@link #close}s the whole
 * view once the node closed or died. A retired file is never used again (ids are not reused), so an access through a
 * stale mapping would have failed anyway; after the unmap it throws {@link IllegalStateException} from FFM instead of
 * touching memory, which the queue pairs check for ({@link SharedMemory#isMapped}) or catch and turn into the error
 * completion the retired file would have given.
 *
 * <p>Thread-safety: lookups are lock-free reads of {@link MappedFiles} snapshots; a miss maps the file under this
 * object's lock, and releasing and closing take it too.
 */
final class PeerNode {

    private static final long SELF_PID = ProcessHandle.current().pid();

    final long node;
    final Path directory;
    private final Arena arena;
    private final MemorySegment nodeFile;
    private final long pid;
    private final long startMillis;

    /** Set by the progress agent once the node is found closed or dead, and by {@link #close}; never cleared. */
    private volatile boolean failed;

    /** Set under the lock by {@link #close}; no file is mapped after it. */
    private boolean closed;

    private final MappedFiles regions = new MappedFiles();
    private final MappedFiles queuePairs = new MappedFiles();
    private final MappedFiles completionQueues = new MappedFiles();

    /** Whether a region's page tables are filled when it is mapped ({@link ShmFabricProvider#POPULATE_IMPORTED_OPTION}). */
    private final boolean populateRegions;

    private PeerNode(long node, Path directory, Arena arena, MemorySegment nodeFile, boolean populateRegions) {
        this.populateRegions = populateRegions;
        this.node = node;
        this.directory = directory;
        this.arena = arena;
        this.nodeFile = nodeFile;
        this.pid = NodeDescriptor.pid(nodeFile);
        this.startMillis = NodeDescriptor.startMillis(nodeFile);
    }

    /**
     * Maps the node file of {@code node} under {@code base}; empty if the node does not exist (or never did) or has
     * closed.
     */
    static Optional<PeerNode> open(Path base, long node, boolean populateRegions) {
        Path directory = base.resolve(NodeDescriptor.directoryName(node));
        Arena arena = Arena.ofShared();
        MemorySegment nodeFile = SharedMemory.mapExisting(directory.resolve(NodeDescriptor.FILE_NAME), arena);
        if (nodeFile == null || !NodeDescriptor.isValid(nodeFile) || NodeDescriptor.isClosed(nodeFile)) {
            arena.close();
            return Optional.empty();
        }
        return Optional.of(new PeerNode(node, directory, arena, nodeFile, populateRegions));
    }

    /** The node's file ({@link NodeDescriptor}); mapped for as long as this view is open. */
    MemorySegment nodeFile() {
        return nodeFile;
    }

    boolean isFailed() {
        return failed;
    }

    /** Whether the node's fabric is still open and its process alive. Coordination code: reads /proc. */
    boolean checkAlive() {
        synchronized (this) { // the node file stays mapped while we read it
            if (failed || closed || NodeDescriptor.isClosed(nodeFile)) {
                return false;
            }
        }
        return isProcessAlive(pid, startMillis);
    }

    /** Whether the node's fabric closed cleanly (as opposed to its process dying). */
    synchronized boolean isClosed() {
        return closed || NodeDescriptor.isClosed(nodeFile);
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
        return handle.get()
                .info()
                .startInstant()
                .map(i -> Math.abs(i.toEpochMilli() - startMillis) < 2000)
                .orElse(true);
    }

    /** The file of region {@code id}, or null if it does not exist. Data path after the first call per id. */
    MemorySegment region(int id) {
        MemorySegment file = regions.get(id);
        return file != null ? file : map(Kind.REGION, id);
    }

    /** The file of queue pair {@code qpn}, or null if it does not exist. */
    MemorySegment queuePair(int qpn) {
        MemorySegment file = queuePairs.get(qpn);
        return file != null ? file : map(Kind.QUEUE_PAIR, qpn);
    }

    /** The file of completion queue {@code id}, or null if it does not exist. */
    MemorySegment completionQueue(int id) {
        MemorySegment file = completionQueues.get(id);
        return file != null ? file : map(Kind.COMPLETION_QUEUE, id);
    }

    private enum Kind {
        REGION,
        QUEUE_PAIR,
        COMPLETION_QUEUE
    }

    private MappedFiles table(Kind kind) {
        return switch (kind) {
            case REGION -> regions;
            case QUEUE_PAIR -> queuePairs;
            case COMPLETION_QUEUE -> completionQueues;
        };
    }

    /**
     * Maps a file not mapped yet. A file whose owner has retired it is still mapped when it exists (its header then
     * fails the caller's checks), and unmapped again by the next {@link #releaseRetired}.
     */
    private synchronized MemorySegment map(Kind kind, int id) {
        if (id < 0 || closed) {
            return null;
        }
        MappedFiles table = table(kind);
        MemorySegment existing = table.get(id);
        if (existing != null) {
            return existing;
        }
        String name = switch (kind) {
            case REGION -> RegionDescriptor.fileName(id);
            case QUEUE_PAIR -> QueuePairDescriptor.fileName(id);
            case COMPLETION_QUEUE -> CompletionQueueDescriptor.fileName(id);
        };
        Arena fileArena = Arena.ofShared();
        MemorySegment file;
        try {
            file = SharedMemory.mapExisting(directory.resolve(name), fileArena);
        } catch (RuntimeException | Error e) {
            fileArena.close();
            throw e;
        }
        if (file == null) {
            fileArena.close();
            return null;
        }
        if (kind == Kind.REGION && populateRegions) {
            PageTables.populate(file); // WRITEs into it then fault no pages (see PageTables)
        }
        table.put(id, file, fileArena);
        return file;
    }

    /**
     * Unmaps the files whose owner retired them: regions deregistered, queue pairs and completion queues closed.
     * Coordination code, on the progress agent. Returns the number of files unmapped.
     */
    synchronized int releaseRetired() {
        if (closed) {
            return 0;
        }
        return regions.release(RegionDescriptor::isDeregistered)
                + queuePairs.release(QueuePairDescriptor::isClosed)
                + completionQueues.release(CompletionQueueDescriptor::isClosed);
    }

    /** The number of region, queue-pair and completion-queue files mapped now (the node file not counted). */
    int mappedFiles() {
        return regions.size() + queuePairs.size() + completionQueues.size();
    }

    /**
     * Unmaps everything: when this fabric closes, or when the node closed or died. Threads still holding one of the
     * segments get {@link IllegalStateException} on their next access (see the class comment); from then on the node
     * counts as failed.
     */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        regions.closeAll();
        queuePairs.closeAll();
        completionQueues.closeAll();
        arena.close();
        failed = true; // after the unmap: a request copying right now meets the unmap, later ones this flag
    }
}
