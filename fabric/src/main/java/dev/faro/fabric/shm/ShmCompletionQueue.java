package dev.faro.fabric.shm;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.spi.CompletionQueueBudget;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.spi.FabricChecks;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion queue: the consumer side of a {@link CompletionQueueDescriptor} ring in this node's directory.
 * Producers are this node's posting threads and initiators on other nodes, who map the file.
 *
 * <p>Data path: {@link #poll} is allocation-free. Pollers are serialized by a lock, so any thread may poll.
 */
final class ShmCompletionQueue implements CompletionQueue {

    final ShmFabric fabric;
    final int id;
    private final int capacity;
    private final Path file;
    private final Arena arena = Arena.ofShared();
    final MemorySegment ring;
    private final ReentrantLock pollLock = new ReentrantLock();
    private final long stuckTimeoutNs;
    private final CompletionQueueBudget budget;

    /** When the consumer first found the head slot claimed but unpublished; 0 if not stuck. Poller only. */
    private long stuckSinceNs;

    private volatile boolean closed;

    ShmCompletionQueue(ShmFabric fabric, Path directory, int id, int capacity) {
        this.fabric = fabric;
        this.id = id;
        this.capacity = capacity;
        this.budget = new CompletionQueueBudget(id, capacity);
        this.file = directory.resolve(CompletionQueueDescriptor.fileName(id));
        int ringCapacity = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.ring = SharedMemory.create(file, CompletionQueueDescriptor.fileLength(ringCapacity), arena);
        CompletionQueueDescriptor.initialize(ring, ringCapacity);
        this.stuckTimeoutNs = fabric.config().peerTimeout().toNanos();
    }

    /** Reserves room for a queue pair's requests; refuses a queue pair the queue cannot hold. */
    void attach(int slots, String role) {
        if (closed) {
            throw FabricChecks.completionQueueClosed(id);
        }
        budget.attach(slots, role);
    }

    void detach(int slots) {
        budget.detach(slots);
    }

    /** Producer side for this node's own threads. Data path. */
    void offer(long requestId, CompletionStatus status, Opcode opcode, int byteLength, int immediate,
            boolean hasImmediate, boolean sendQueue, long postSequence, int qpn, long sourceNode, int sourceQpn) {
        if (closed) {
            return;
        }
        CompletionQueueDescriptor.offer(ring, requestId, status, opcode, byteLength, immediate, hasImmediate,
                sendQueue, postSequence, qpn, sourceNode, sourceQpn);
    }

    @Override
    public int poll(WorkCompletion[] completions) {
        return poll(completions, completions.length);
    }

    @Override
    public int poll(WorkCompletion[] completions, int max) {
        int limit = Math.min(max, completions.length);
        pollLock.lock();
        try {
            if (closed) {
                throw FabricChecks.completionQueueClosed(id);
            }
            long head = CompletionQueueDescriptor.head(ring);
            int count = 0;
            while (count < limit) {
                long entry = CompletionQueueDescriptor.entryOffset(ring, head);
                if (CompletionQueueDescriptor.isPublished(ring, entry, head)) {
                    WorkCompletion completion = completions[count++];
                    CompletionQueueDescriptor.read(ring, entry, completion);
                    if (CompletionQueueDescriptor.isSendQueueEntry(ring, entry)) {
                        fabric.retireSendRequests(
                                completion.queuePairNumber(), CompletionQueueDescriptor.postSequence(ring, entry));
                    } else if (completion.status() != CompletionStatus.SUCCESS
                            && completion.status() != CompletionStatus.FLUSHED) {
                        fabric.onReceiveError(completion.queuePairNumber());
                    }
                    head++;
                    stuckSinceNs = 0;
                } else if (CompletionQueueDescriptor.tail(ring) > head && skipStuckSlot()) {
                    head++; // a producer claimed this slot and died before publishing it
                } else {
                    break;
                }
            }
            if (count > 0 || head != CompletionQueueDescriptor.head(ring)) {
                CompletionQueueDescriptor.advanceHead(ring, head);
            }
            if (count == 0 && CompletionQueueDescriptor.isOverrun(ring)) {
                throw new FaroException(FaroException.Category.QUEUE_FULL, "completion queue " + id
                        + " overran: more completions arrived than its capacity " + capacity
                        + "; size it for every receive and send that can be outstanding");
            }
            return count;
        } finally {
            pollLock.unlock();
        }
    }

    private boolean skipStuckSlot() {
        long now = System.nanoTime();
        if (stuckSinceNs == 0) {
            stuckSinceNs = now;
            return false;
        }
        if (now - stuckSinceNs < stuckTimeoutNs) {
            return false;
        }
        stuckSinceNs = 0;
        fabric.countCompletionLost();
        return true;
    }

    @Override
    public int await(WorkCompletion[] completions, long timeout, TimeUnit unit) {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        int idle = 0;
        while (true) {
            int count = poll(completions);
            if (count > 0) {
                return count;
            }
            if (System.nanoTime() - deadline >= 0) {
                return 0;
            }
            idle = Backoff.idle(idle);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        pollLock.lock();
        try {
            CompletionQueueDescriptor.markClosed(ring); // peers that mapped the file unmap it
            SharedMemory.deleteQuietly(file);
            arena.close();
        } finally {
            pollLock.unlock();
        }
        fabric.forget(this);
    }

    boolean isClosed() {
        return closed;
    }
}
