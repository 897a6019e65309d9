package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static dev.faro.fabric.TestPayloads.mismatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.faro.fabric.FabricTesting.RcLink;
import dev.faro.fabric.FabricTesting.UdEnd;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Bounded queues and completion queues: QUEUE_FULL on send and receive queues (with the verbs rule for unsignaled
 * requests), CLOSED queue pairs, completion-queue sizing, batch polling and event-mode waits.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface QueueConformance extends FabricNodes {

    @Test
    default void sendQueueOverflowIsQueueFullAndPostsNothing() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        fill(source.segment(), 0, 4096, 141);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        for (int i = 0; i < 4; i++) {
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .opcode(Opcode.WRITE)
                            .local(source, 64L * i, 64)
                            .remote(key, 64L * i));
        }
        assertFaroException(
                FaroException.Category.QUEUE_FULL,
                "fifth request on a send queue of depth 4",
                () -> link.a()
                        .queuePair()
                        .postSend(request.clear()
                                .requestId(4)
                                .opcode(Opcode.WRITE)
                                .local(source, 256, 64)
                                .remote(key, 256)));

        List<Completion> completions = awaitCompletions(link.a().completionQueue(), 4, "the four WRITEs");
        assertThat(completions).extracting(Completion::requestId).containsExactly(0L, 1L, 2L, 3L);
        assertNoCompletion(link.a().completionQueue(), "the refused request was not posted");
        assertThat(target.segment().get(ValueLayout.JAVA_LONG, 256))
                .as("the refused WRITE wrote nothing")
                .isZero();
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.READY);

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(5)
                        .opcode(Opcode.WRITE)
                        .local(source, 256, 64)
                        .remote(key, 256));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "WRITE after polling"), 5, Opcode.WRITE);
        assertThat(mismatch(target.segment(), 0, 320, 141)).isEqualTo(-1);
    }

    @Test
    default void unsignaledRequestsHoldTheirSlotsUntilALaterSignaledCompletionIsPolled() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        for (int i = 0; i < 4; i++) {
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .opcode(Opcode.WRITE)
                            .signaled(i == 3)
                            .local(source, 0, 64)
                            .remote(key, 0));
        }
        assertFaroException(
                FaroException.Category.QUEUE_FULL,
                "unpolled unsignaled requests still hold slots",
                () -> link.a()
                        .queuePair()
                        .postSend(request.clear()
                                .requestId(4)
                                .opcode(Opcode.WRITE)
                                .local(source, 0, 64)
                                .remote(key, 0)));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "the signaled WRITE"), 3, Opcode.WRITE);
        for (int i = 0; i < 4; i++) { // polling it freed all four slots
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(10 + i)
                            .opcode(Opcode.WRITE)
                            .local(source, 0, 64)
                            .remote(key, 0));
        }
        assertThat(awaitCompletions(link.a().completionQueue(), 4, "four signaled WRITEs"))
                .extracting(Completion::requestId)
                .containsExactly(10L, 11L, 12L, 13L);
    }

    @Test
    default void receiveQueueOverflowIsQueueFull() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion receiveBuffer = b.register(8 * 64, LOCAL_WRITE);
        MemoryRegion source = a.register(64, NO_RIGHTS);
        for (int i = 0; i < 4; i++) {
            link.b().queuePair().postReceive(i, receiveBuffer, 64L * i, 64);
        }
        assertFaroException(
                FaroException.Category.QUEUE_FULL,
                "fifth receive on a receive queue of depth 4",
                () -> link.b().queuePair().postReceive(4, receiveBuffer, 256, 64));
        assertThat(link.b().queuePair().postedReceives()).isEqualTo(4);

        link.a().queuePair().postSend(new WorkRequest().requestId(1).local(source, 0, 64));
        assertSuccess(awaitCompletion(link.b().completionQueue(), "one receive consumed"), 0, Opcode.RECEIVE);
        assertThat(link.b().queuePair().postedReceives()).isEqualTo(3);
        link.b().queuePair().postReceive(5, receiveBuffer, 320, 64);
        assertThat(link.b().queuePair().postedReceives()).isEqualTo(4);
    }

    @Test
    default void postingOnAClosedQueuePairIsClosed() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        link.a().queuePair().postReceive(1, local, 0, 64);
        link.a().queuePair().postReceive(2, local, 64, 64);
        link.a().queuePair().close();

        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.CLOSED);
        assertFaroException(
                FaroException.Category.CLOSED,
                "postSend on a closed RC queue pair",
                () -> link.a()
                        .queuePair()
                        .postSend(new WorkRequest().requestId(3).local(local, 0, 64)));
        assertFaroException(
                FaroException.Category.CLOSED,
                "postReceive on a closed RC queue pair",
                () -> link.a().queuePair().postReceive(4, local, 0, 64));
        assertNoCompletion(link.a().completionQueue(), "requests outstanding at close are dropped silently");
        link.a().queuePair().close(); // idempotent

        if (a.capabilities().supportsUd()) {
            UdEnd ud = udEnd(a, 4, 4);
            QueuePairAddress self = addressAt(a, ud.queuePair());
            ud.queuePair().close();
            assertThat(ud.queuePair().state()).isEqualTo(QueuePairState.CLOSED);
            assertFaroException(
                    FaroException.Category.CLOSED,
                    "postSend on a closed UD queue pair",
                    () -> ud.queuePair()
                            .postSend(new WorkRequest()
                                    .requestId(5)
                                    .local(local, 0, 64)
                                    .destination(self)));
            assertFaroException(
                    FaroException.Category.CLOSED,
                    "postReceive on a closed UD queue pair",
                    () -> ud.queuePair().postReceive(6, local, 0, 64));
        }
    }

    @Test
    default void aCompletionQueueTooSmallForTheDepthsIsRefused() {
        Fabric a = open("a");
        CompletionQueue small = a.createCompletionQueue(8);
        assertThat(small.capacity()).isEqualTo(8);
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "RC 8+8 on a CQ of 8",
                () -> a.createRcQueuePair(QueuePairConfig.of(small, 8, 8)));
        RcQueuePair first = a.createRcQueuePair(QueuePairConfig.of(small, 4, 4)); // exactly fits
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "a second QP 1+1 on a full CQ of 8",
                () -> a.createRcQueuePair(QueuePairConfig.of(small, 1, 1)));
        first.close();
        a.createRcQueuePair(QueuePairConfig.of(small, 4, 4)).close(); // a closed QP gave its share back

        CompletionQueue sends = a.createCompletionQueue(8);
        CompletionQueue receives = a.createCompletionQueue(4);
        a.createRcQueuePair(new QueuePairConfig(sends, receives, 8, 4, 0)).close(); // each queue sized for its side
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "5 receives on a receive CQ of 4",
                () -> a.createRcQueuePair(new QueuePairConfig(sends, receives, 8, 5, 0)));
        if (a.capabilities().supportsUd()) {
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "UD 8+8 on a CQ of 8",
                    () -> a.createUdQueuePair(QueuePairConfig.of(small, 8, 8)));
        }
    }

    @Test
    default void sizesBeyondTheCapabilitiesAreRefused() {
        Fabric a = open("a");
        FabricCapabilities capabilities = a.capabilities();
        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT, "a CQ of capacity 0", () -> a.createCompletionQueue(0));
        if (capabilities.maxCompletionQueueCapacity() < Integer.MAX_VALUE) {
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "a CQ above the maximum",
                    () -> a.createCompletionQueue(capabilities.maxCompletionQueueCapacity() + 1));
        }
        CompletionQueue completionQueue =
                a.createCompletionQueue((int) Math.min(capabilities.maxCompletionQueueCapacity(), 1L << 16));
        if (capabilities.maxQueueDepth() < Integer.MAX_VALUE) {
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "a send queue above the maximum depth",
                    () -> a.createRcQueuePair(
                            QueuePairConfig.of(completionQueue, capabilities.maxQueueDepth() + 1, 1)));
        }
        if (capabilities.maxInlineBytes() < Integer.MAX_VALUE) {
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "an inline limit above the maximum",
                    () -> a.createRcQueuePair(new QueuePairConfig(
                            completionQueue, completionQueue, 4, 4, capabilities.maxInlineBytes() + 1)));
        }
    }

    // ========================================================================================= completion queues

    @Test
    default void pollReturnsSeveralCompletionsAtOnceAndRespectsItsMaximum() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 16, 16);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        for (int i = 0; i < 8; i++) {
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .opcode(Opcode.WRITE)
                            .local(source, 0, 64)
                            .remote(key, 64L * i));
        }
        WorkCompletion[] completions = WorkCompletion.array(16);
        List<Long> ids = new ArrayList<>();
        int largestBatch = 0;
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        int idle = 0;
        while (ids.size() < 8) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("only %d of 8 completions within %s: %s", ids.size(), WAIT, ids);
            }
            int polled = ids.isEmpty()
                    ? link.a().completionQueue().poll(completions, 3)
                    : link.a().completionQueue().poll(completions);
            if (ids.isEmpty()) {
                assertThat(polled).as("poll(max=3)").isLessThanOrEqualTo(3);
            }
            for (int i = 0; i < polled; i++) {
                assertThat(completions[i].status()).isEqualTo(CompletionStatus.SUCCESS);
                ids.add(completions[i].requestId());
            }
            largestBatch = Math.max(largestBatch, polled);
            idle = polled > 0 ? 0 : idle + 1;
            idle(idle);
        }
        assertThat(ids).as("in posting order, each once").containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(largestBatch).as("one poll returned several completions").isGreaterThan(1);
        assertNoCompletion(link.a().completionQueue(), "exactly eight");
    }

    @Test
    default void awaitWakesWhenACompletionArrivesFromAnotherNode() throws Exception {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(64, NO_RIGHTS);
        MemoryRegion receiveBuffer = b.register(64, LOCAL_WRITE);
        link.b().queuePair().postReceive(3, receiveBuffer, 0, 64);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Completion> woken = new AtomicReference<>();

        runConcurrently(
                WAIT.multipliedBy(2),
                "await",
                () -> {
                    WorkCompletion[] completions = WorkCompletion.array(4);
                    waiting.countDown();
                    int polled = link.b().completionQueue().await(completions, WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    assertThat(polled)
                            .as("await returned a completion before its timeout")
                            .isEqualTo(1);
                    woken.set(Completion.of(completions[0]));
                },
                () -> {
                    assertThat(waiting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                            .isTrue();
                    link.a().queuePair().postSend(new WorkRequest().requestId(1).local(source, 0, 64));
                });
        assertSuccess(woken.get(), 3, Opcode.RECEIVE);
    }

    @Test
    default void awaitReturnsZeroWhenTheTimeoutPasses() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        WorkCompletion[] completions = WorkCompletion.array(4);
        assertThat(link.a().completionQueue().await(completions, 20, TimeUnit.MILLISECONDS))
                .isZero();
        CompletionQueue unused = a.createCompletionQueue(4);
        assertThat(unused.await(completions, 1, TimeUnit.MILLISECONDS)).isZero();
        assertThat(unused.poll(completions)).isZero();
    }

    @Test
    default void awaitOnAQueueThatClosesThrowsClosed() throws Exception {
        Fabric a = open("a");
        CompletionQueue completionQueue = a.createCompletionQueue(4);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Throwable> thrown = new AtomicReference<>();

        runConcurrently(
                WAIT.multipliedBy(2),
                "await-close",
                () -> {
                    WorkCompletion[] completions = WorkCompletion.array(4);
                    waiting.countDown();
                    long deadlineNs = System.nanoTime() + WAIT.toNanos();
                    try {
                        while (System.nanoTime() - deadlineNs < 0) {
                            completionQueue.await(completions, 500, TimeUnit.MILLISECONDS);
                        }
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                },
                () -> {
                    assertThat(waiting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                            .isTrue();
                    completionQueue.close();
                });
        assertThat(thrown.get()).as("await on a closed queue").isInstanceOf(FaroException.class);
        assertThat(((FaroException) thrown.get()).category()).isEqualTo(FaroException.Category.CLOSED);
    }
}
