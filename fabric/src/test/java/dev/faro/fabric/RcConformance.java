package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static dev.faro.fabric.TestPayloads.mismatch;
import static dev.faro.fabric.TestPayloads.snapshot;
import static dev.faro.fabric.TestPayloads.unchanged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.RcLink;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Reliable Connection semantics: exactly once in posting order, receive completions, WRITE_WITH_IMMEDIATE, signaled
 * and unsignaled requests, inline payloads, receiver-not-ready retry and its error, oversized SENDs, requests to
 * peers not connected back, and the error state.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface RcConformance extends FabricNodes {

    @Test
    default void rcSendsArriveExactlyOnceInPostingOrder() {
        sendStream(10_000, 64, 256);
    }

    /**
     * Lengths from a header to 128 KiB on one queue pair: where a provider moves large messages another way than
     * small ones (UCX: rendezvous fetches, several at once, beside eager copies), completions still follow posting
     * order and every byte arrives.
     */
    @Test
    default void rcSendsOfMixedSizesArriveIntactInPostingOrder() {
        sendStream(1_000, 16, 128 * 1024);
    }

    /** Streams {@code total} SENDs of random lengths up to {@code slotBytes}, checking order and content. */
    private void sendStream(int total, int depth, int slotBytes) {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, depth, depth);
        MemoryRegion sendBuffers = a.register((long) depth * slotBytes, NO_RIGHTS);
        MemoryRegion receiveBuffers = b.register((long) depth * slotBytes, LOCAL_WRITE);
        for (int slot = 0; slot < depth; slot++) {
            link.b().queuePair().postReceive(slot, receiveBuffers, (long) slot * slotBytes, slotBytes);
        }
        int credits = depth;
        long posted = 0;
        long sendsCompleted = 0;
        long received = 0;
        WorkRequest request = new WorkRequest();
        WorkCompletion[] completions = WorkCompletion.array(depth);
        long deadlineNs = System.nanoTime() + WAIT.multipliedBy(3).toNanos();
        int idle = 0;

        while (received < total) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail(
                        "stream stalled: posted %d, send completions %d, received %d of %d (seed=%d)",
                        posted, sendsCompleted, received, total, SEED);
            }
            boolean progress = false;
            while (posted < total && credits > 0 && posted - sendsCompleted < depth) {
                int length = TestPayloads.messageLength(SEED, 0, posted, TestPayloads.HEADER_BYTES, slotBytes);
                long offset = (posted % depth) * slotBytes;
                TestPayloads.writeMessage(sendBuffers.segment(), offset, 0, posted, length);
                link.a()
                        .queuePair()
                        .postSend(request.clear()
                                .requestId(posted)
                                .opcode(Opcode.SEND)
                                .local(sendBuffers, offset, length));
                posted++;
                credits--;
                progress = true;
            }
            int polled = link.a().completionQueue().poll(completions);
            for (int i = 0; i < polled; i++) {
                Completion completion = Completion.of(completions[i]);
                assertSuccess(completion, sendsCompleted, Opcode.SEND); // send completions in posting order
                sendsCompleted++;
            }
            polled = link.b().completionQueue().poll(completions);
            for (int i = 0; i < polled; i++) {
                Completion completion = Completion.of(completions[i]);
                int slot = (int) (received % depth);
                assertSuccess(completion, slot, Opcode.RECEIVE); // receives are consumed in posting order
                long offset = (long) slot * slotBytes;
                String problem = TestPayloads.verifyMessage(receiveBuffers.segment(), offset, completion.byteLength());
                if (problem != null) {
                    fail("message %d: %s (seed=%d)", received, problem, SEED);
                }
                long sequence = TestPayloads.sequence(receiveBuffers.segment(), offset);
                if (sequence != received) {
                    fail(
                            "expected message %d, got %d: lost, duplicated or reordered (seed=%d)",
                            received, sequence, SEED);
                }
                link.b().queuePair().postReceive(slot, receiveBuffers, offset, slotBytes);
                received++;
                credits++;
            }
            progress |= polled > 0;
            idle = progress ? 0 : idle + 1;
            idle(idle);
        }
        assertThat(awaitCompletions(link.a().completionQueue(), (int) (total - sendsCompleted), "last sends"))
                .allMatch(Completion::isSuccess);
        assertNoCompletion(link.b().completionQueue(), "every message arrived once");
    }

    @Test
    default void rcReceiveCompletionNamesTheSenderAndTheLength() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        fill(source.segment(), 0, 4096, 51);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        link.b().queuePair().postReceive(33, receiveBuffer, 100, 3000);
        assertThat(link.b().queuePair().postedReceives()).isEqualTo(1);

        link.a()
                .queuePair()
                .postSend(new WorkRequest().requestId(3).opcode(Opcode.SEND).local(source, 10, 2000));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "SEND"), 3, Opcode.SEND);
        Completion received = awaitCompletion(link.b().completionQueue(), "RECEIVE");
        assertSuccess(received, 33, Opcode.RECEIVE);
        assertThat(received.byteLength()).isEqualTo(2000);
        assertThat(received.hasImmediate()).isFalse();
        assertThat(received.queuePairNumber()).isEqualTo(link.b().queuePair().queuePairNumber());
        assertThat(received.sourceNode()).as("source node").isEqualTo(a.node());
        assertThat(received.sourceQueuePairNumber())
                .isEqualTo(link.a().queuePair().queuePairNumber());
        assertThat(MemorySegment.mismatch(receiveBuffer.segment(), 100, 2100, source.segment(), 10, 2010))
                .isEqualTo(-1);
        assertThat(receiveBuffer.segment().get(ValueLayout.JAVA_BYTE, 2100))
                .as("byte after the payload")
                .isZero();
        assertThat(link.b().queuePair().postedReceives()).isZero();
    }

    @Test
    default void writeWithImmediateConsumesOneReceiveAndCarriesTheImmediate() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(8192, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion receiveBuffer = b.register(256, LOCAL_WRITE);
        fill(receiveBuffer.segment(), 0, 256, 61);
        byte[] receiveBefore = snapshot(receiveBuffer.segment(), 0, 256);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        fill(source.segment(), 0, 4096, 62);
        link.b().queuePair().postReceive(77, receiveBuffer, 0, 128);
        link.b().queuePair().postReceive(78, receiveBuffer, 128, 128);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(5)
                        .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                        .local(source, 0, 1000)
                        .remote(key, 64)
                        .immediate(0xCAFE_BABE));
        assertSuccess(
                awaitCompletion(link.a().completionQueue(), "WRITE_WITH_IMMEDIATE"), 5, Opcode.WRITE_WITH_IMMEDIATE);
        Completion received = awaitCompletion(link.b().completionQueue(), "RECEIVE_WRITE_WITH_IMMEDIATE");
        assertSuccess(received, 77, Opcode.RECEIVE_WRITE_WITH_IMMEDIATE);
        assertThat(received.hasImmediate()).isTrue();
        assertThat(received.immediate()).isEqualTo(0xCAFE_BABE);
        assertThat(received.byteLength()).isEqualTo(1000);
        assertThat(received.queuePairNumber()).isEqualTo(link.b().queuePair().queuePairNumber());
        assertThat(received.sourceNode()).isEqualTo(a.node());
        assertThat(received.sourceQueuePairNumber())
                .isEqualTo(link.a().queuePair().queuePairNumber());
        assertThat(MemorySegment.mismatch(target.segment(), 64, 1064, source.segment(), 0, 1000))
                .as("data lands at the WRITE's address")
                .isEqualTo(-1);
        assertThat(unchanged(receiveBuffer.segment(), 0, receiveBefore))
                .as("the receive buffer is not written")
                .isTrue();
        assertThat(link.b().queuePair().postedReceives())
                .as("exactly one receive consumed")
                .isEqualTo(1);

        // zero-length: a pure notification
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(6)
                        .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                        .local(source, 0, 0)
                        .remote(key, 0)
                        .immediate(7));
        assertSuccess(
                awaitCompletion(link.a().completionQueue(), "zero-length WRITE_WITH_IMMEDIATE"),
                6,
                Opcode.WRITE_WITH_IMMEDIATE);
        Completion notification = awaitCompletion(link.b().completionQueue(), "zero-length notification");
        assertSuccess(notification, 78, Opcode.RECEIVE_WRITE_WITH_IMMEDIATE);
        assertThat(notification.immediate()).isEqualTo(7);
        assertThat(notification.byteLength()).isZero();
        assertThat(link.b().queuePair().postedReceives()).isZero();
    }

    @Test
    default void unsignaledSuccessesProduceNoCompletion() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 16, 4);
        MemoryRegion target = b.register(16 * 64, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(16 * 64, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        for (int i = 0; i < 11; i++) {
            fill(source.segment(), 64L * i, 64, 100 + i);
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .opcode(Opcode.WRITE)
                            .signaled(i == 10)
                            .local(source, 64L * i, 64)
                            .remote(key, 64L * i));
        }
        assertSuccess(awaitCompletion(link.a().completionQueue(), "the one signaled WRITE"), 10, Opcode.WRITE);
        assertNoCompletion(link.a().completionQueue(), "unsignaled successes complete silently");
        for (int i = 0; i < 11; i++) {
            assertThat(mismatch(target.segment(), 64L * i, 64, 100 + i))
                    .as("WRITE %d landed", i)
                    .isEqualTo(-1);
        }
    }

    @Test
    default void unsignaledFailureStillCompletes() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion gone = b.register(4096, ALL_RIGHTS);
        RemoteKey key = keyAt(a, gone);
        gone.close();
        MemoryRegion source = a.register(64, NO_RIGHTS);

        link.a()
                .queuePair()
                .postSend(new WorkRequest()
                        .requestId(12)
                        .opcode(Opcode.WRITE)
                        .signaled(false)
                        .local(source, 0, 64)
                        .remote(key, 0));
        Completion completion = awaitCompletion(link.a().completionQueue(), "failed unsignaled WRITE");
        assertThat(completion.requestId()).isEqualTo(12);
        assertThat(completion.status()).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    default void inlinePayloadMayBeReusedRightAfterPostSend() {
        Fabric a = open("a");
        Fabric b = open("b");
        assumeTrue(a.capabilities().maxInlineBytes() >= 64, "provider supports 64-byte inline payloads");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        link.b().queuePair().postReceive(1, receiveBuffer, 0, 4096);

        MemorySegment heap = MemorySegment.ofArray(new byte[60]); // not registered, not even off-heap
        fill(heap, 0, 60, 71);
        link.a()
                .queuePair()
                .postSend(new WorkRequest().requestId(1).opcode(Opcode.SEND).inline(heap));
        fill(heap, 0, 60, 72); // reuse at once

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment offHeap = arena.allocate(64);
            fill(offHeap, 0, 64, 73);
            link.a()
                    .queuePair()
                    .postSend(new WorkRequest()
                            .requestId(2)
                            .opcode(Opcode.WRITE)
                            .inline(offHeap)
                            .remote(keyAt(a, target), 128));
            fill(offHeap, 0, 64, 74);
        } // and even free it

        List<Completion> sends = awaitCompletions(link.a().completionQueue(), 2, "inline SEND and WRITE");
        assertSuccess(sends.get(0), 1, Opcode.SEND);
        assertSuccess(sends.get(1), 2, Opcode.WRITE);
        Completion received = awaitCompletion(link.b().completionQueue(), "inline SEND");
        assertSuccess(received, 1, Opcode.RECEIVE);
        assertThat(received.byteLength()).isEqualTo(60);
        assertThat(mismatch(receiveBuffer.segment(), 0, 60, 71))
                .as("SEND carried the bytes at post time")
                .isEqualTo(-1);
        assertThat(mismatch(target.segment(), 128, 64, 73))
                .as("WRITE carried the bytes at post time")
                .isEqualTo(-1);
    }

    @Test
    default void inlinePayloadAboveTheQueuePairLimitIsInvalidArgument() {
        Fabric a = open("a");
        Fabric b = open("b");
        assumeTrue(a.capabilities().maxInlineBytes() >= 32, "provider supports 32-byte inline payloads");
        CompletionQueue completionQueueA = a.createCompletionQueue(8);
        RcEnd endA = new RcEnd(
                a,
                completionQueueA,
                a.createRcQueuePair(new QueuePairConfig(completionQueueA, completionQueueA, 4, 4, 32)));
        RcEnd endB = rcEnd(b, 4, 4);
        connect(endA, endB);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        RemoteKey key = keyAt(a, target);

        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "inline of 33 bytes with a 32-byte limit",
                () -> endA.queuePair()
                        .postSend(new WorkRequest()
                                .requestId(1)
                                .opcode(Opcode.WRITE)
                                .inline(MemorySegment.ofArray(new byte[33]))
                                .remote(key, 0)));
        assertNoCompletion(endA.completionQueue(), "nothing was posted");
        MemorySegment payload = MemorySegment.ofArray(new byte[32]);
        fill(payload, 0, 32, 75);
        endA.queuePair()
                .postSend(new WorkRequest()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .inline(payload)
                        .remote(key, 0));
        assertSuccess(awaitCompletion(endA.completionQueue(), "inline at the limit"), 2, Opcode.WRITE);
        assertThat(mismatch(target.segment(), 0, 32, 75)).isEqualTo(-1);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"SEND", "WRITE_WITH_IMMEDIATE"})
    default void receiverNotReadyIsRetriedUntilAReceiveIsPosted(Opcode opcode) throws Exception {
        Duration retryWindow = Duration.ofSeconds(30);
        Fabric a = open(nodeConfig("a").withReceiverNotReadyTimeout(retryWindow));
        Fabric b = open(nodeConfig("b").withReceiverNotReadyTimeout(retryWindow));
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        fill(source.segment(), 0, 4096, 81);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        WorkRequest request = new WorkRequest().requestId(9).opcode(opcode).local(source, 0, 200);
        if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
            request.remote(keyAt(a, target), 0).immediate(99);
        }

        // The receive is posted only once the sender has found none; whether postSend waits or returns, this works.
        runConcurrently(
                WAIT.multipliedBy(2),
                "receiver-not-ready",
                () -> {
                    awaitCondition(
                            () -> a.counters().receiverNotReadyRetries() > 0,
                            "the sender counts a receiver-not-ready retry");
                    link.b().queuePair().postReceive(1, receiveBuffer, 0, 4096);
                },
                () -> {
                    link.a().queuePair().postSend(request);
                    assertSuccess(
                            awaitCompletion(link.a().completionQueue(), opcode + " after a late receive"), 9, opcode);
                });

        Completion received = awaitCompletion(link.b().completionQueue(), "the late receive");
        assertSuccess(received, 1, opcode == Opcode.SEND ? Opcode.RECEIVE : Opcode.RECEIVE_WRITE_WITH_IMMEDIATE);
        assertThat(received.byteLength()).isEqualTo(200);
        MemoryRegion landing = opcode == Opcode.SEND ? receiveBuffer : target;
        assertThat(mismatch(landing.segment(), 0, 200, 81)).isEqualTo(-1);
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.READY);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"SEND", "WRITE_WITH_IMMEDIATE"})
    default void receiverNotReadyRetryExceededMovesTheQueuePairToError(Opcode opcode) {
        Duration retryWindow = Duration.ofMillis(300);
        Fabric a = open(nodeConfig("a").withReceiverNotReadyTimeout(retryWindow));
        Fabric b = open(nodeConfig("b").withReceiverNotReadyTimeout(retryWindow));
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion ownReceives = a.register(4096, LOCAL_WRITE);
        link.a().queuePair().postReceive(100, ownReceives, 0, 1024);
        link.a().queuePair().postReceive(101, ownReceives, 1024, 1024);
        WorkRequest request = new WorkRequest().requestId(9).opcode(opcode).local(source, 0, 200);
        if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
            request.remote(keyAt(a, target), 0).immediate(99);
        }

        link.a().queuePair().postSend(request); // the peer never posts a receive
        List<Completion> completions = awaitCompletions(
                link.a().completionQueue(), 3, opcode + " without a receive, and the two flushed receives");
        assertThat(completions)
                .as("completions: %s", completions)
                .filteredOn(c -> c.requestId() == 9)
                .singleElement()
                .extracting(Completion::status)
                .isEqualTo(CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED);
        assertThat(completions)
                .as("completions: %s", completions)
                .filteredOn(c -> c.requestId() >= 100)
                .hasSize(2)
                .allMatch(c -> c.status() == CompletionStatus.FLUSHED, "posted receives flushed");
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.ERROR);
        assertThat(a.counters().receiverNotReadyRetries()).isPositive();

        link.a()
                .queuePair()
                .postSend(new WorkRequest()
                        .requestId(10)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 64)
                        .remote(keyAt(a, target), 1024));
        Completion flushed = awaitCompletion(link.a().completionQueue(), "a request posted in ERROR");
        assertThat(flushed.requestId()).isEqualTo(10);
        assertThat(flushed.status()).isEqualTo(CompletionStatus.FLUSHED);
        assertThat(target.segment().get(ValueLayout.JAVA_LONG, 1024))
                .as("a flushed WRITE writes nothing")
                .isZero();
        assertNoCompletion(link.b().completionQueue(), "the target posted nothing");
    }

    @Test
    default void sendLargerThanThePostedReceiveFailsAtBothEnds() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        link.b().queuePair().postReceive(5, receiveBuffer, 0, 64);

        link.a()
                .queuePair()
                .postSend(new WorkRequest().requestId(6).opcode(Opcode.SEND).local(source, 0, 128));
        Completion atSender = awaitCompletion(link.a().completionQueue(), "oversized SEND at the sender");
        assertThat(atSender.requestId()).isEqualTo(6);
        assertThat(atSender.status()).isEqualTo(CompletionStatus.REMOTE_INVALID_REQUEST);
        Completion atReceiver = awaitCompletion(link.b().completionQueue(), "oversized SEND at the receiver");
        assertThat(atReceiver.requestId()).isEqualTo(5);
        assertThat(atReceiver.status()).isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
        assertThat(link.a().queuePair().state())
                .as("sender after REMOTE_INVALID_REQUEST")
                .isEqualTo(QueuePairState.ERROR);
        assertThat(link.b().queuePair().state())
                .as("receiver after LOCAL_LENGTH_ERROR (any non-SUCCESS status"
                        + " moves an RC queue pair to ERROR, CompletionStatus Javadoc)")
                .isEqualTo(QueuePairState.ERROR);
    }

    @ParameterizedTest
    @EnumSource(
            value = Opcode.class,
            names = {"SEND", "WRITE"})
    default void requestToAPeerNotConnectedBackFailsWithRemoteOperationError(Opcode opcode) {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);

        // b's queue pair never connects (INIT)
        RcEnd lonely = rcEnd(b, 4, 4);
        lonely.queuePair().postReceive(1, receiveBuffer, 0, 4096);
        RcEnd fromA = rcEnd(a, 4, 4);
        fromA.queuePair().connect(addressAt(a, lonely.queuePair()));
        fromA.queuePair().postSend(request(opcode, 1, source, keyAt(a, target)));
        Completion first = awaitCompletion(fromA.completionQueue(), opcode + " to a queue pair in INIT");
        assertThat(first.status()).as("%s", first).isEqualTo(CompletionStatus.REMOTE_OPERATION_ERROR);

        // b's queue pair connects to c, not to a
        RcEnd taken = rcEnd(b, 4, 4);
        taken.queuePair().postReceive(2, receiveBuffer, 0, 4096);
        RcEnd atC = rcEnd(c, 4, 4);
        connect(taken, atC);
        RcEnd intruder = rcEnd(a, 4, 4);
        intruder.queuePair().connect(addressAt(a, taken.queuePair()));
        intruder.queuePair().postSend(request(opcode, 2, source, keyAt(a, target)));
        Completion second = awaitCompletion(intruder.completionQueue(), opcode + " to a queue pair connected to c");
        assertThat(second.status()).as("%s", second).isEqualTo(CompletionStatus.REMOTE_OPERATION_ERROR);

        assertThat(lonely.queuePair().postedReceives())
                .as("receive not consumed")
                .isEqualTo(1);
        assertThat(taken.queuePair().postedReceives())
                .as("receive not consumed")
                .isEqualTo(1);
        assertNoCompletion(lonely.completionQueue(), "b learns nothing");
        assertNoCompletion(taken.completionQueue(), "b learns nothing");
        assertThat(unchanged(target.segment(), 0, targetBefore)).isTrue();
    }

    private static WorkRequest request(Opcode opcode, long requestId, MemoryRegion source, RemoteKey key) {
        WorkRequest request =
                new WorkRequest().requestId(requestId).opcode(opcode).local(source, 0, 64);
        return opcode == Opcode.SEND ? request : request.remote(key, 0);
    }

    @Test
    default void errorStateFlushesPostedAndLaterRequests() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        MemoryRegion gone = b.register(4096, ALL_RIGHTS);
        RemoteKey goneKey = keyAt(a, gone);
        gone.close();
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        fill(local.segment(), 0, 4096, 91);
        link.a().queuePair().postReceive(100, local, 0, 512);
        link.a().queuePair().postReceive(101, local, 512, 512);

        link.a()
                .queuePair()
                .postSend(new WorkRequest()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(local, 0, 64)
                        .remote(goneKey, 0));
        List<Completion> completions = awaitCompletions(link.a().completionQueue(), 3, "error and flushed receives");
        assertThat(completions)
                .as("completions: %s", completions)
                .filteredOn(c -> c.requestId() == 1)
                .singleElement()
                .extracting(Completion::status)
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(completions)
                .as("completions: %s", completions)
                .filteredOn(c -> c.requestId() >= 100)
                .extracting(Completion::status)
                .containsExactly(CompletionStatus.FLUSHED, CompletionStatus.FLUSHED);
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.ERROR);
        assertThat(link.a().queuePair().postedReceives()).isZero();

        WorkRequest request = new WorkRequest();
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(local, 0, 64)
                        .remote(keyAt(a, target), 0));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(3)
                        .opcode(Opcode.SEND)
                        .signaled(false)
                        .local(local, 0, 64));
        link.a().queuePair().postReceive(102, local, 1024, 512);
        List<Completion> later = awaitCompletions(link.a().completionQueue(), 3, "requests posted in ERROR");
        assertThat(later).extracting(Completion::requestId).containsExactlyInAnyOrder(2L, 3L, 102L);
        assertThat(later).allMatch(c -> c.status() == CompletionStatus.FLUSHED, "all FLUSHED: " + later);
        assertThat(target.segment().get(ValueLayout.JAVA_LONG, 0))
                .as("flushed WRITE wrote nothing")
                .isZero();
        assertNoCompletion(link.b().completionQueue(), "flushed requests never reach the peer");
    }
}
