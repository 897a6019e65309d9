package dev.faro.fabric.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The files of one kind (regions, queue pairs or completion queues) that this fabric mapped from one node's
 * directory, by id, each in its own shared {@link Arena} so that each can be unmapped alone: a node creates and
 * closes these files all the time (every query registers new regions), so a mapping must go when its file's owner
 * retires it, not when this fabric closes.
 *
 * <p>Unmapping while another thread may still hold the segment is safe: a shared arena's close makes every later or
 * concurrent access to its segments throw {@link IllegalStateException} ("Already closed"), never touch unmapped
 * memory. Users check {@link SharedMemory#isMapped} where a stale segment is expected and turn that exception into an
 * error completion where the race is possible (see {@link PeerNode}).
 *
 * <p>Thread-safety: {@link #get} is a lock-free read of one volatile snapshot (ids sorted ascending, so a binary
 * search); {@link #put}, {@link #release} and {@link #closeAll} copy the snapshot and must be called under the owning
 * {@link PeerNode}'s lock. Data path: {@link #get} is allocation-free.
 */
final class MappedFiles {

    private record Snapshot(int[] ids, MemorySegment[] files, Arena[] arenas) {}

    private static final Snapshot EMPTY = new Snapshot(new int[0], new MemorySegment[0], new Arena[0]);

    private volatile Snapshot snapshot = EMPTY;

    /** The mapped file {@code id}, or null if it is not mapped (it may have been unmapped just now). */
    MemorySegment get(int id) {
        Snapshot current = snapshot;
        int index = Arrays.binarySearch(current.ids, id);
        return index >= 0 ? current.files[index] : null;
    }

    /** Adds a mapping; {@code id} must not be present. Caller holds the owner's lock. */
    void put(int id, MemorySegment file, Arena arena) {
        Snapshot current = snapshot;
        int index = Arrays.binarySearch(current.ids, id);
        if (index >= 0) {
            throw new IllegalStateException("file already mapped: id=" + id);
        }
        int at = -index - 1;
        int length = current.ids.length;
        int[] ids = new int[length + 1];
        MemorySegment[] files = new MemorySegment[length + 1];
        Arena[] arenas = new Arena[length + 1];
        System.arraycopy(current.ids, 0, ids, 0, at);
        System.arraycopy(current.files, 0, files, 0, at);
        System.arraycopy(current.arenas, 0, arenas, 0, at);
        ids[at] = id;
        files[at] = file;
        arenas[at] = arena;
        System.arraycopy(current.ids, at, ids, at + 1, length - at);
        System.arraycopy(current.files, at, files, at + 1, length - at);
        System.arraycopy(current.arenas, at, arenas, at + 1, length - at);
        snapshot = new Snapshot(ids, files, arenas);
    }

    /**
     * Removes and unmaps every file whose header says its owner retired it ({@code retired}). Caller holds the owner's
     * lock. Returns the number removed.
     */
    int release(Predicate<MemorySegment> retired) {
        Snapshot current = snapshot;
        int length = current.ids.length;
        int first = 0;
        while (first < length && !retired.test(current.files[first])) {
            first++;
        }
        if (first == length) {
            return 0; // the usual case: nothing allocated
        }
        boolean[] drop = new boolean[length];
        drop[first] = true;
        int dropped = 1;
        for (int i = first + 1; i < length; i++) {
            if (retired.test(current.files[i])) {
                drop[i] = true;
                dropped++;
            }
        }
        int kept = length - dropped;
        int[] ids = new int[kept];
        MemorySegment[] files = new MemorySegment[kept];
        Arena[] arenas = new Arena[kept];
        int next = 0;
        for (int i = 0; i < length; i++) {
            if (!drop[i]) {
                ids[next] = current.ids[i];
                files[next] = current.files[i];
                arenas[next] = current.arenas[i];
                next++;
            }
        }
        snapshot = new Snapshot(ids, files, arenas); // first unpublish, then unmap
        for (int i = 0; i < length; i++) {
            if (drop[i]) {
                current.arenas[i].close();
            }
        }
        return dropped;
    }

    /** Unmaps everything. Caller holds the owner's lock. */
    void closeAll() {
        Snapshot current = snapshot;
        snapshot = EMPTY;
        for (Arena arena : current.arenas) {
            arena.close();
        }
    }

    /** The number of files mapped now. */
    int size() {
        return snapshot.ids.length;
    }
}
