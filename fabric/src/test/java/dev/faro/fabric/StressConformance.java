package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.Task;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Stress: several threads posting on shared RC queue pairs and one shared completion queue, receivers reposting,
 * every message checked once, in order per poster, with its checksum.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface StressConformance extends FabricNodes {

    @Test
    default void concurrentPostersOnSharedQueuePairsDeliverEveryMessageOnceAndIntact() throws Exception {
        int threads = 4;
        int queuePairs = 2;
        int messagesPerThread = 400;
        int slotsPerThread = 8;
        int sendDepth = slotsPerThread * threads / queuePairs;
        int receiveDepth = 32;
        int minBytes = 64;
        int maxBytes = 64 * KIB;
        Duration retryWindow = Duration.ofSeconds(30);
        Fabric a = open(nodeConfig("a").withReceiverNotReadyTimeout(retryWindow));
        Fabric b = open(nodeConfig("b").withReceiverNotReadyTimeout(retryWindow));
        CompletionQueue sendQueue = a.createCompletionQueue(queuePairs * (sendDepth + 1));
        CompletionQueue receiveQueue = b.createCompletionQueue(queuePairs * (1 + receiveDepth));
        RcQueuePair[] senders = new RcQueuePair[queuePairs];
        RcQueuePair[] receivers = new RcQueuePair[queuePairs];
        MemoryRegion[] receiveBuffers = new MemoryRegion[queuePairs];
        Semaphore[] credits = new Semaphore[queuePairs];
        for (int q = 0; q < queuePairs; q++) {
            senders[q] = a.createRcQueuePair(QueuePairConfig.of(sendQueue, sendDepth, 1));
            receivers[q] = b.createRcQueuePair(QueuePairConfig.of(receiveQueue, 1, receiveDepth));
            connect(new RcEnd(a, sendQueue, senders[q]), new RcEnd(b, receiveQueue, receivers[q]));
            receiveBuffers[q] = b.register((long) receiveDepth * maxBytes, LOCAL_WRITE);
            for (int slot = 0; slot < receiveDepth; slot++) {
                receivers[q].postReceive(slot, receiveBuffers[q], (long) slot * maxBytes, maxBytes);
            }
            credits[q] = new Semaphore(receiveDepth); // receives posted and not yet aimed at
        }
        List<ConcurrentLinkedQueue<Integer>> freeSlots = new ArrayList<>(); // per poster, its send buffer slots
        MemoryRegion[] sendBuffers = new MemoryRegion[threads];
        for (int t = 0; t < threads; t++) {
            freeSlots.add(new ConcurrentLinkedQueue<>());
            for (int slot = 0; slot < slotsPerThread; slot++) {
                freeSlots.get(t).add(slot);
            }
            sendBuffers[t] = a.register((long) slotsPerThread * maxBytes, NO_RIGHTS);
        }
        AtomicReference<String> problem = new AtomicReference<>();
        long deadlineNs = System.nanoTime() + WAIT.multipliedBy(3).toNanos();

        // Any poster may poll any completion of the shared send queue; it hands the slot back to its owner.
        java.util.function.IntSupplier pollSends = () -> {
            WorkCompletion[] completions = WorkCompletion.array(16);
            int polled = sendQueue.poll(completions);
            for (int i = 0; i < polled; i++) {
                WorkCompletion completion = completions[i];
                if (completion.status() != CompletionStatus.SUCCESS || completion.opcode() != Opcode.SEND) {
                    problem.compareAndSet(null, "send failed: " + completion);
                }
                freeSlots.get((int) (completion.requestId() >>> 32)).add((int) completion.requestId());
            }
            return polled;
        };
        Task[] tasks = new Task[threads + 1];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            int q = t % queuePairs;
            tasks[t] = () -> {
                WorkRequest request = new WorkRequest();
                for (long sequence = 0; sequence < messagesPerThread && problem.get() == null; sequence++) {
                    Integer slot;
                    int idle = 0;
                    while ((slot = freeSlots.get(thread).poll()) == null) {
                        idle = pollSends.getAsInt() > 0 ? 0 : idle + 1;
                        stressCheck(problem, deadlineNs, "poster " + thread + " waiting for a send slot");
                        idle(idle);
                    }
                    int length = TestPayloads.messageLength(SEED, thread, sequence, minBytes, maxBytes);
                    long offset = (long) slot * maxBytes;
                    TestPayloads.writeMessage(sendBuffers[thread].segment(), offset, thread, sequence, length);
                    idle = 0;
                    while (!credits[q].tryAcquire()) {
                        idle = pollSends.getAsInt() > 0 ? 0 : idle + 1;
                        stressCheck(problem, deadlineNs, "poster " + thread + " waiting for a receive credit");
                        idle(idle);
                    }
                    senders[q].postSend(request.clear()
                            .requestId(((long) thread << 32) | slot)
                            .opcode(Opcode.SEND)
                            .local(sendBuffers[thread], offset, length));
                }
                int idle = 0;
                while (freeSlots.get(thread).size() < slotsPerThread && problem.get() == null) {
                    idle = pollSends.getAsInt() > 0 ? 0 : idle + 1;
                    stressCheck(problem, deadlineNs, "poster " + thread + " waiting for its last completions");
                    idle(idle);
                }
            };
        }
        long[] nextSequence = new long[threads];
        tasks[threads] = () -> {
            WorkCompletion[] completions = WorkCompletion.array(32);
            long received = 0;
            long total = (long) threads * messagesPerThread;
            while (received < total && problem.get() == null) {
                stressCheck(problem, deadlineNs, "receiver after " + received + " of " + total + " messages");
                int polled = receiveQueue.await(completions, 100, TimeUnit.MILLISECONDS);
                for (int i = 0; i < polled; i++) {
                    WorkCompletion completion = completions[i];
                    int q = completion.queuePairNumber() == receivers[0].queuePairNumber()
                            ? 0
                            : completion.queuePairNumber() == receivers[1].queuePairNumber() ? 1 : -1;
                    if (completion.status() != CompletionStatus.SUCCESS
                            || completion.opcode() != Opcode.RECEIVE
                            || q < 0) {
                        problem.compareAndSet(null, "bad receive completion: " + completion);
                        return;
                    }
                    long offset = completion.requestId() * maxBytes;
                    MemorySegment buffer = receiveBuffers[q].segment();
                    String corrupt = TestPayloads.verifyMessage(buffer, offset, completion.byteLength());
                    if (corrupt != null) {
                        problem.compareAndSet(null, "message corrupted: " + corrupt);
                        return;
                    }
                    int stream = TestPayloads.stream(buffer, offset);
                    long sequence = TestPayloads.sequence(buffer, offset);
                    if (stream < 0 || stream >= threads || stream % queuePairs != q) {
                        problem.compareAndSet(null, "message of poster " + stream + " on queue pair " + q);
                        return;
                    }
                    if (sequence != nextSequence[stream]) {
                        problem.compareAndSet(
                                null,
                                "poster " + stream + ": expected message " + nextSequence[stream] + ", got " + sequence
                                        + " (lost, duplicated or reordered)");
                        return;
                    }
                    nextSequence[stream]++;
                    receivers[q].postReceive(completion.requestId(), receiveBuffers[q], offset, maxBytes);
                    credits[q].release();
                    received++;
                }
            }
        };
        runConcurrently(WAIT.multipliedBy(4), "stress", tasks);
        assertThat(problem.get()).as("seed=%d", SEED).isNull();
        assertThat(nextSequence)
                .as("every message of every poster arrived (seed=%d)", SEED)
                .containsOnly(messagesPerThread);
        assertNoCompletion(receiveQueue, "no message arrived twice");
        assertNoCompletion(sendQueue, "every send completion was polled once");
    }

    private static void stressCheck(AtomicReference<String> problem, long deadlineNs, String where) {
        if (System.nanoTime() - deadlineNs > 0) {
            problem.compareAndSet(null, "stalled: " + where);
        }
        if (problem.get() != null) {
            throw new AssertionError(problem.get() + " (seed=" + SEED + ")");
        }
    }
}
