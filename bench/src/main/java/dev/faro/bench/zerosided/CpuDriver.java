package dev.faro.bench.zerosided;

import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;

/**
 * One CPU driver thread of the CPU-driven one-sided baseline (the paper's scheme 1, Fig. 6's red and green bars): it
 * watches the producer buffers of its flows on this host and moves their items itself with RC WRITEs of the verbs
 * fabric: the items into the consumer's buffer, then the consumer's head word (ordered after them on the same queue
 * pair); on completion it frees the producer's slots (a local release store of the tail). When a consumer buffer
 * looks full it READs the consumer's tail word. Same buffers, same batching cap and same one-transfer-per-flow rule
 * as the switch, so only who drives differs.
 *
 * <p>Data path: allocation-free loop; one thread.
 */
final class CpuDriver implements Runnable {

    private static final VarHandle WORD =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    private final int[] flows;
    private final MemoryRegion[] producers;
    private final RemoteKey[] consumers;
    private final MemoryRegion scratch;
    private final RcQueuePair queuePair;
    private final CompletionQueue completionQueue;
    private final int capacity;
    private final int itemBytes;
    private final long maxBatchItems;
    private final long[] sent;
    private final long[] consumerTail;
    private final long[] pending;
    private final boolean[] busy;
    private final WorkRequest request = new WorkRequest();
    private final WorkCompletion[] completions = WorkCompletion.array(16);
    private volatile boolean stop;
    private volatile long cpuNanos;
    private volatile RuntimeException failure;

    CpuDriver(
            int[] flows,
            MemoryRegion[] producers,
            RemoteKey[] consumers,
            MemoryRegion scratch,
            RcQueuePair queuePair,
            CompletionQueue completionQueue,
            ZeroSidedPoint point) {
        this.flows = flows.clone();
        this.producers = producers;
        this.consumers = consumers;
        this.scratch = scratch;
        this.queuePair = queuePair;
        this.completionQueue = completionQueue;
        this.capacity = point.capacity();
        this.itemBytes = point.itemBytes();
        this.maxBatchItems = Math.max(1, point.maxBatchBytes() / point.itemBytes());
        this.sent = new long[producers.length];
        this.consumerTail = new long[producers.length];
        this.pending = new long[producers.length];
        this.busy = new boolean[producers.length];
    }

    @Override
    public void run() {
        try {
            while (!stop) {
                for (int flow : flows) {
                    if (!busy[flow]) {
                        drive(flow);
                    }
                }
                poll();
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        }
    }

    private void drive(int flow) {
        MemorySegment producer = producers[flow].segment();
        long head = ZeroSidedBufferDescriptor.count(
                (long) WORD.getAcquire(producer, (long) ZeroSidedBufferDescriptor.HEAD_OFFSET));
        long free = capacity - (sent[flow] - consumerTail[flow]);
        if (free == 0) {
            busy[flow] = true;
            request.clear()
                    .requestId(flow * 2L + 1)
                    .opcode(Opcode.READ)
                    .signaled(true)
                    .local(scratch, flow * 16L + 8, Long.BYTES)
                    .remote(consumers[flow], ZeroSidedBufferDescriptor.TAIL_OFFSET);
            queuePair.postSend(request);
            return;
        }
        long items = Math.min(Math.min(head - sent[flow], free), maxBatchItems);
        items = Math.min(items, capacity - sent[flow] % capacity);
        if (items <= 0) {
            return;
        }
        long slot = ZeroSidedBufferDescriptor.slotOffset(sent[flow], capacity, itemBytes);
        request.clear()
                .requestId(flow * 2L)
                .opcode(Opcode.WRITE)
                .signaled(false)
                .local(producers[flow], slot, (int) (items * itemBytes))
                .remote(consumers[flow], slot);
        queuePair.postSend(request);
        scratch.segment()
                .set(
                        ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN),
                        flow * 16L,
                        sent[flow] + items);
        request.clear()
                .requestId(flow * 2L)
                .opcode(Opcode.WRITE)
                .signaled(true)
                .local(scratch, flow * 16L, Long.BYTES)
                .remote(consumers[flow], ZeroSidedBufferDescriptor.HEAD_OFFSET);
        queuePair.postSend(request);
        busy[flow] = true;
        pending[flow] = items;
    }

    private void poll() {
        int count = completionQueue.poll(completions);
        for (int i = 0; i < count; i++) {
            WorkCompletion completion = completions[i];
            if (!completion.status().isSuccess()) {
                throw new FaroException(FaroException.Category.NETWORK, "CPU driver: a transfer failed: " + completion);
            }
            int flow = (int) (completion.requestId() / 2);
            if (completion.requestId() % 2 == 0) {
                sent[flow] += pending[flow];
                WORD.setRelease(producers[flow].segment(), (long) ZeroSidedBufferDescriptor.TAIL_OFFSET, sent[flow]);
            } else {
                consumerTail[flow] = scratch.segment()
                        .get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), flow * 16L + 8);
            }
            busy[flow] = false;
        }
    }

    /** Stops the loop (call, then join the thread). */
    void stop() {
        stop = true;
    }

    /** CPU time the driver thread used, once it has ended. */
    long cpuNanos() {
        return cpuNanos;
    }

    RuntimeException failure() {
        return failure;
    }
}
