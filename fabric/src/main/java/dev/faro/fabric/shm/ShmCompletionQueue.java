package dev.faro.fabric.shm;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.spi.AbstractCompletionQueue;
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
final class ShmCompletionQueue extends AbstractCompletionQueue {

    private final ShmFabric fabric;
    private final Path file;
    private final Arena arena = Arena.ofShared();
    final MemorySegment ring;
    private final ReentrantLock pollLock = new ReentrantLock();
    private final long stuckTimeoutNs;

    /** When the consumer first found the head slot claimed but unpublished; 0 if not stuck. Poller only. */
    private long stuckSinceNs;

    ShmCompletionQueue(ShmFabric fabric, Path directory, int id, int capacity) {
        super(fabric, id, capacity);
        this.fabric = fabric;
        this.file = directory.resolve(CompletionQueueDescriptor.fileName(id));
        int ringCapacity = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        this.ring = SharedMemory.create(file, CompletionQueueDescriptor.fileLength(ringCapacity), arena);
        CompletionQueueDescriptor.initialize(ring, ringCapacity);
        this.stuckTimeoutNs = fabric.config().peerTimeout().toNanos();
    }

    /** Producer side for this node's own threads. Data path. */
    void offer(
            long requestId,
            CompletionStatus status,
            Opcode opcode,
            int byteLength,
            int immediate,
            boolean hasImmediate,
            boolean sendQueue,
            long postSequence,
            int qpn,
            long sourceNode,
            int sourceQpn) {
        if (isClosed()) {
            return;
        }
        CompletionQueueDescriptor.offer(
                ring,
                requestId,
                status,
                opcode,
                byteLength,
                immediate,
                hasImmediate,
                sendQueue,
                postSequence,
                qpn,
                sourceNode,
                sourceQpn);
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
            checkNotClosed();
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
                throw overrun();
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

    /** Unmaps the ring once no poll runs; peers that mapped the file see it closed and unmap it. */
    @Override
    protected void onClose() {
        pollLock.lock();
        try {
            CompletionQueueDescriptor.markClosed(ring);
            SharedMemory.deleteQuietly(file);
            arena.close();
        } finally {
            pollLock.unlock();
        }
    }
}
