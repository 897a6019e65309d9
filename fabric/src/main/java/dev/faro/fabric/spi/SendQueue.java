package dev.faro.fabric.spi;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;

/**
 * A queue pair's send queue: a ring of {@link PostedSend} entries, the post sequence posting threads publish and the
 * sequence up to which the send completion queue's poller has freed entries again. For providers whose progress
 * thread works from copies of posted requests (net, ucx); which requests are issued and completed, and when, stays
 * with the provider.
 *
 * <p>Threads: {@link #post} runs under the queue pair's send lock and publishes the post sequence (volatile write,
 * release); the progress thread reads it ({@link #posted}, acquire) before it reads the entry. {@link #retire} is the
 * poller's. An unsignaled request keeps its entry until a later signaled one is polled. Data path: allocation-free.
 *
 * @param <R> the provider's region type
 * @param <S> the provider's entry type
 */
public final class SendQueue<R extends AbstractMemoryRegion, S extends PostedSend<R, ?>> {

    private final S[] slots;

    /** Requests posted so far: the post sequence of the latest. Written under the send lock (release). */
    private volatile long posted;

    /** Post sequence up to which entries are free again; written by the send completion queue's poller. */
    private volatile long retired;

    /** A queue of {@code slots.length} entries; takes the array over. */
    public SendQueue(S[] slots) {
        this.slots = slots;
    }

    /** The entry of post sequence {@code sequence}. */
    public S slot(long sequence) {
        return slots[(int) (sequence % slots.length)];
    }

    /** The latest post sequence (acquire). */
    public long posted() {
        return posted;
    }

    /** Frees entries up to {@code sequence}. The send completion queue's poller. */
    public void retire(long sequence) {
        if (sequence > retired) {
            retired = sequence;
        }
    }

    /**
     * Pins {@code local} (if not null), copies {@code request} into the next entry and publishes it. The caller holds
     * the send lock and validated the request; {@code QUEUE_FULL} if every entry is in use, {@code CLOSED} if the
     * region is closed (nothing posted either way).
     */
    public void post(WorkRequest request, R local, int qpn) {
        long sequence = posted + 1;
        if (sequence - 1 - retired >= slots.length) {
            throw QueuePairChecks.sendQueueFull(qpn, slots.length);
        }
        if (local != null && !local.pin()) {
            throw QueuePairChecks.regionClosed(local);
        }
        slot(sequence).fill(request, local, sequence);
        posted = sequence;
    }

    /**
     * Completes the request of post sequence {@code sequence} with {@code status}: releases its local region, then,
     * while the queue pair is {@code open}, publishes its completion on {@code sendCq} (always for an error, for
     * success only when signaled). The provider's progress thread, in posting order. Data path: allocation-free.
     */
    public void complete(long sequence, CompletionStatus status, HeapCompletionQueue sendCq, int qpn, boolean open) {
        S slot = slot(sequence);
        long requestId = slot.requestId;
        Opcode opcode = slot.opcode;
        boolean publish = slot.publishes(status);
        int length = slot.completionLength(status);
        slot.release();
        if (publish && open) {
            sendCq.offer(requestId, status, opcode, length, 0, false, this, sequence, qpn, 0, 0);
        }
    }

    /**
     * After close: releases the regions of the requests from {@code from} up to the latest post, which will never
     * complete, and returns the sequence after the latest. The progress thread, or the closing thread once it stopped.
     */
    public long releaseFrom(long from) {
        long last = posted;
        long sequence = from;
        while (sequence <= last) {
            slot(sequence++).release();
        }
        return sequence;
    }
}
