package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static dev.faro.fabric.TestPayloads.snapshot;
import static dev.faro.fabric.TestPayloads.unchanged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.faro.fabric.FabricTesting.UdEnd;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Unreliable Datagram semantics: SEND to any UD queue pair with the sender named, drop-and-count without a receive,
 * the MTU, SEND only, and seeded fault injection (loss, duplication, reordering, reproducibility).
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface UdConformance extends FabricNodes {

    private void assumeUd(Fabric fabric) {
        assumeTrue(fabric.capabilities().supportsUd(), "provider " + fabric.provider() + " has no UD");
    }

    @Test
    default void udNotSupportedIsReportedClearly() {
        Fabric a = open("a");
        assumeFalse(a.capabilities().supportsUd(), "provider supports UD");
        CompletionQueue completionQueue = a.createCompletionQueue(8);
        assertFaroException(
                FaroException.Category.NOT_SUPPORTED,
                "createUdQueuePair without UD",
                () -> a.createUdQueuePair(QueuePairConfig.of(completionQueue, 4, 4)));
    }

    @Test
    default void udSendReachesAnyQueuePairAndNamesTheSender() {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");
        assumeUd(a);
        UdEnd sender = udEnd(a, 8, 1);
        UdEnd atB = udEnd(b, 1, 8);
        UdEnd atC = udEnd(c, 1, 8);
        int mtu = sender.queuePair().mtuBytes();
        assertThat(mtu).isEqualTo(a.capabilities().udMtuBytes());
        MemoryRegion receivesB = b.register(2L * mtu, LOCAL_WRITE);
        MemoryRegion receivesC = c.register(mtu, LOCAL_WRITE);
        atB.queuePair().postReceive(0, receivesB, 0, mtu);
        atB.queuePair().postReceive(1, receivesB, mtu, mtu);
        atC.queuePair().postReceive(0, receivesC, 0, mtu);
        MemoryRegion source = a.register(3L * mtu, NO_RIGHTS);
        fill(source.segment(), 0, 3L * mtu, 111);
        QueuePairAddress toB = addressAt(a, atB.queuePair());
        QueuePairAddress toC = addressAt(a, atC.queuePair());
        WorkRequest request = new WorkRequest();

        sender.queuePair()
                .postSend(request.clear().requestId(1).local(source, 0, 100).destination(toB));
        sender.queuePair()
                .postSend(request.clear().requestId(2).local(source, mtu, mtu).destination(toC));
        sender.queuePair()
                .postSend(
                        request.clear().requestId(3).local(source, 2L * mtu, 1).destination(toB));

        assertThat(awaitCompletions(sender.completionQueue(), 3, "UD sends"))
                .extracting(Completion::requestId, Completion::status, Completion::opcode)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(1L, CompletionStatus.SUCCESS, Opcode.SEND),
                        org.assertj.core.groups.Tuple.tuple(2L, CompletionStatus.SUCCESS, Opcode.SEND),
                        org.assertj.core.groups.Tuple.tuple(3L, CompletionStatus.SUCCESS, Opcode.SEND));
        List<Completion> gotB = awaitCompletions(atB.completionQueue(), 2, "UD receives at b");
        Completion gotC = awaitCompletion(atC.completionQueue(), "UD receive at c");
        QueuePairAddress senderAddress = sender.queuePair().address();
        for (Completion completion : List.of(gotB.get(0), gotB.get(1), gotC)) {
            assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(completion.opcode()).isEqualTo(Opcode.RECEIVE);
            assertThat(completion.sourceNode())
                    .as("source node of %s", completion)
                    .isEqualTo(senderAddress.node())
                    .isEqualTo(a.node());
            assertThat(completion.sourceQueuePairNumber())
                    .as("source QP of %s", completion)
                    .isEqualTo(senderAddress.queuePairNumber());
        }
        assertThat(gotB)
                .extracting(Completion::queuePairNumber)
                .containsOnly(atB.queuePair().queuePairNumber());
        assertThat(gotC.queuePairNumber()).isEqualTo(atC.queuePair().queuePairNumber());
        Completion first = gotB.stream()
                .filter(x -> x.byteLength() == 100)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no 100-byte receive at b: " + gotB));
        Completion third = gotB.stream()
                .filter(x -> x.byteLength() == 1)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no 1-byte receive at b: " + gotB));
        assertThat(MemorySegment.mismatch(
                        receivesB.segment(),
                        first.requestId() * mtu,
                        first.requestId() * mtu + 100,
                        source.segment(),
                        0,
                        100))
                .as("payload at offset 0 of the receive buffer (no header)")
                .isEqualTo(-1);
        assertThat(receivesB.segment().get(ValueLayout.JAVA_BYTE, third.requestId() * mtu))
                .isEqualTo(source.segment().get(ValueLayout.JAVA_BYTE, 2L * mtu));
        assertThat(gotC.byteLength()).isEqualTo(mtu);
        assertThat(MemorySegment.mismatch(receivesC.segment(), 0, mtu, source.segment(), mtu, 2L * mtu))
                .isEqualTo(-1);
    }

    @Test
    default void udSendWithoutAPostedReceiveIsDroppedAndCounted() {
        Fabric a = open("a");
        Fabric b = open("b");
        assumeUd(a);
        UdEnd sender = udEnd(a, 8, 1);
        UdEnd receiver = udEnd(b, 1, 8);
        MemoryRegion source = a.register(4 * 256, NO_RIGHTS);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        QueuePairAddress destination = addressAt(a, receiver.queuePair());
        WorkRequest request = new WorkRequest();
        for (int i = 0; i < 3; i++) {
            TestPayloads.writeMessage(source.segment(), 256L * i, 0, i, 256);
            sender.queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .local(source, 256L * i, 256)
                            .destination(destination));
        }
        assertThat(awaitCompletions(sender.completionQueue(), 3, "UD sends into nothing"))
                .as("the sender of a dropped UD SEND still sees success")
                .allMatch(Completion::isSuccess);
        awaitCondition(
                () -> receiver.queuePair().receivesMissed() == 3,
                "receivesMissed reaches 3 (is " + receiver.queuePair().receivesMissed() + ")");
        assertThat(b.counters().udReceivesMissed()).isEqualTo(3);
        assertThat(a.counters().udReceivesMissed()).isZero();

        receiver.queuePair().postReceive(7, receiveBuffer, 0, 4096);
        TestPayloads.writeMessage(source.segment(), 768, 0, 3, 256);
        sender.queuePair()
                .postSend(request.clear().requestId(3).local(source, 768, 256).destination(destination));
        assertThat(awaitCompletion(sender.completionQueue(), "fourth UD send").isSuccess())
                .isTrue();
        Completion received = awaitCompletion(receiver.completionQueue(), "the fourth message");
        assertSuccess(received, 7, Opcode.RECEIVE);
        assertThat(TestPayloads.verifyMessage(receiveBuffer.segment(), 0, received.byteLength()))
                .isNull();
        assertThat(TestPayloads.sequence(receiveBuffer.segment(), 0))
                .as("dropped messages are gone, not delivered late")
                .isEqualTo(3);
        assertNoCompletion(receiver.completionQueue(), "nothing else arrives");
        assertThat(receiver.queuePair().receivesMissed()).isEqualTo(3);
    }

    @Test
    default void udPayloadAboveTheMtuIsInvalidArgumentAndPostsNothing() {
        Fabric a = open("a");
        Fabric b = open("b");
        assumeUd(a);
        UdEnd sender = udEnd(a, 8, 1);
        UdEnd receiver = udEnd(b, 1, 8);
        int mtu = sender.queuePair().mtuBytes();
        MemoryRegion source = a.register(2L * mtu, NO_RIGHTS);
        fill(source.segment(), 0, 2L * mtu, 121);
        MemoryRegion receiveBuffer = b.register(4L * mtu, LOCAL_WRITE);
        receiver.queuePair().postReceive(1, receiveBuffer, 0, 2 * mtu);
        receiver.queuePair().postReceive(2, receiveBuffer, 2L * mtu, 2 * mtu);
        QueuePairAddress destination = addressAt(a, receiver.queuePair());

        assertFaroException(
                FaroException.Category.INVALID_ARGUMENT,
                "UD SEND of MTU + 1 bytes",
                () -> sender.queuePair()
                        .postSend(new WorkRequest()
                                .requestId(6)
                                .local(source, 0, mtu + 1)
                                .destination(destination)));
        assertNoCompletion(sender.completionQueue(), "nothing was posted");

        sender.queuePair()
                .postSend(new WorkRequest().requestId(7).local(source, 0, mtu).destination(destination));
        assertSuccess(awaitCompletion(sender.completionQueue(), "UD SEND of exactly the MTU"), 7, Opcode.SEND);
        Completion received = awaitCompletion(receiver.completionQueue(), "the MTU-sized message");
        assertSuccess(received, 1, Opcode.RECEIVE);
        assertThat(received.byteLength()).isEqualTo(mtu);
        assertThat(receiver.queuePair().postedReceives())
                .as("the refused send consumed no receive")
                .isEqualTo(1);
        assertNoCompletion(receiver.completionQueue(), "the refused send never arrives");
    }

    @Test
    default void udRefusesEveryOpcodeButSend() {
        Fabric a = open("a");
        Fabric b = open("b");
        assumeUd(a);
        UdEnd sender = udEnd(a, 8, 1);
        UdEnd receiver = udEnd(b, 1, 8);
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);
        fill(local.segment(), 0, 4096, 131);
        byte[] localBefore = snapshot(local.segment(), 0, 4096);
        RemoteKey key = keyAt(a, target);
        QueuePairAddress destination = addressAt(a, receiver.queuePair());

        for (RemoteOp op : RemoteOp.values()) {
            WorkRequest request = op.request(op.ordinal(), local, 0, key, 0, 0).destination(destination);
            assertFaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    op + " on UD",
                    () -> sender.queuePair().postSend(request));
        }
        assertNoCompletion(sender.completionQueue(), "nothing was posted");
        assertNoCompletion(receiver.completionQueue(), "nothing arrived");
        assertThat(unchanged(target.segment(), 0, targetBefore)).isTrue();
        assertThat(unchanged(local.segment(), 0, localBefore)).isTrue();
        assertThat(sender.queuePair().state()).isEqualTo(QueuePairState.READY);
    }

    /** What a receiver saw of a UD stream, and the sender's fault counters. */
    record UdRun(List<Long> sequences, FabricCounters senderCounters, FabricCounters receiverCounters) {}

    /**
     * Sends {@code messages} numbered UD messages (plus {@code tail} more, numbered on) from a fresh node with the
     * given faults to a fresh node with plenty of receives posted, and returns the sequence numbers in arrival order.
     */
    private UdRun udRun(String name, FaultInjection faults, int messages, int tail) {
        Fabric a = open(nodeConfig(name + "-sender").withFaults(faults));
        Fabric b = open(nodeConfig(name + "-receiver").withFaults(FaultInjection.NONE));
        assumeUd(a);
        int total = messages + tail;
        int receiveDepth = Math.min(a.capabilities().maxQueueDepth(), 1024);
        assumeTrue(receiveDepth >= 2 * total, "the provider allows " + 2 * total + " posted receives");
        int slotBytes = 256;
        int sendDepth = 32;
        UdEnd sender = udEnd(a, sendDepth, 1);
        UdEnd receiver = udEnd(b, 1, receiveDepth);
        MemoryRegion sendBuffers = a.register((long) sendDepth * slotBytes, NO_RIGHTS);
        MemoryRegion receiveBuffers = b.register((long) receiveDepth * slotBytes, LOCAL_WRITE);
        for (int slot = 0; slot < receiveDepth; slot++) {
            receiver.queuePair().postReceive(slot, receiveBuffers, (long) slot * slotBytes, slotBytes);
        }
        QueuePairAddress destination = addressAt(a, receiver.queuePair());
        WorkRequest request = new WorkRequest();
        int completed = 0;
        for (int sequence = 0; sequence < total; sequence++) {
            if (sequence - completed == sendDepth) {
                for (Completion completion : awaitCompletions(sender.completionQueue(), 1, "UD send")) {
                    assertThat(completion.status())
                            .as("UD sender sees success (seed=%d)", faults.seed())
                            .isEqualTo(CompletionStatus.SUCCESS);
                    completed++;
                }
            }
            long offset = (long) (sequence % sendDepth) * slotBytes;
            int length = TestPayloads.messageLength(faults.seed(), 0, sequence, 64, slotBytes);
            TestPayloads.writeMessage(sendBuffers.segment(), offset, 0, sequence, length);
            sender.queuePair()
                    .postSend(request.clear()
                            .requestId(sequence)
                            .local(sendBuffers, offset, length)
                            .destination(destination));
        }
        assertThat(awaitCompletions(sender.completionQueue(), total - completed, "last UD sends"))
                .allMatch(Completion::isSuccess);

        // Every send is now delivered, dropped or (at most one) held back; wait for the expected count, then drain.
        FabricCounters counters = a.counters();
        long expected = total - counters.udSendsLostByFaults() + counters.udSendsDuplicatedByFaults() - 1;
        List<Long> sequences = new ArrayList<>();
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        WorkCompletion[] completions = WorkCompletion.array(64);
        while (true) {
            int polled = receiver.completionQueue().await(completions, 200, TimeUnit.MILLISECONDS);
            if (polled == 0 && (sequences.size() >= expected || System.nanoTime() - deadlineNs > 0)) {
                break;
            }
            for (int i = 0; i < polled; i++) {
                Completion completion = Completion.of(completions[i]);
                assertThat(completion.status())
                        .as("UD receive %s (seed=%d)", completion, faults.seed())
                        .isEqualTo(CompletionStatus.SUCCESS);
                long offset = completion.requestId() * slotBytes;
                String problem = TestPayloads.verifyMessage(receiveBuffers.segment(), offset, completion.byteLength());
                if (problem != null) {
                    fail("UD message corrupted: %s (seed=%d)", problem, faults.seed());
                }
                sequences.add(TestPayloads.sequence(receiveBuffers.segment(), offset));
            }
        }
        assertThat(receiver.queuePair().receivesMissed())
                .as("receives were posted for everything")
                .isZero();
        return new UdRun(sequences, a.counters(), b.counters());
    }

    @Test
    default void udWithoutFaultsLosesNothing() {
        UdRun run = udRun("none", FaultInjection.NONE, 400, 0);
        assertThat(run.sequences())
                .as("every message exactly once")
                .hasSize(400)
                .doesNotHaveDuplicates();
        assertThat(run.sequences())
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.range(0, 400).boxed().toList());
        assertThat(run.senderCounters().udSendsLostByFaults()).isZero();
        assertThat(run.senderCounters().udSendsDuplicatedByFaults()).isZero();
        assertThat(run.senderCounters().udSendsReorderedByFaults()).isZero();
    }

    @Test
    default void udFaultInjectionLosesMessages() {
        FaultInjection faults = new FaultInjection(SEED, 0.2, 0, 0);
        UdRun run = udRun("loss", faults, 300, 0);
        List<Long> seen = run.sequences();
        assertThat(seen).as("loss only: no duplicates (seed=%d)", SEED).doesNotHaveDuplicates();
        assertThat(seen).as("loss only: order kept (seed=%d)", SEED).isSorted();
        assertThat(seen.size()).as("some lost (seed=%d)", SEED).isLessThan(300).isPositive();
        assertThat(run.senderCounters().udSendsLostByFaults())
                .as("lost counter (seed=%d)", SEED)
                .isEqualTo(300L - seen.size());
    }

    @Test
    default void udFaultInjectionDuplicatesMessages() {
        FaultInjection faults = new FaultInjection(SEED, 0, 0, 0.2);
        UdRun run = udRun("duplicate", faults, 300, 0);
        List<Long> seen = run.sequences();
        long distinct = seen.stream().distinct().count();
        assertThat(distinct)
                .as("duplication only: nothing lost (seed=%d)", SEED)
                .isEqualTo(300);
        assertThat(seen.size()).as("some delivered twice (seed=%d)", SEED).isGreaterThan(300);
        assertThat(seen.stream()
                        .collect(java.util.stream.Collectors.groupingBy(s -> s, java.util.stream.Collectors.counting()))
                        .values())
                .as("at most twice (seed=%d)", SEED)
                .allMatch(count -> count <= 2);
        assertThat(run.senderCounters().udSendsDuplicatedByFaults())
                .as("duplicated counter (seed=%d)", SEED)
                .isEqualTo(seen.size() - 300L);
    }

    @Test
    default void udFaultInjectionReordersMessages() {
        FaultInjection faults = new FaultInjection(SEED, 0, 0.2, 0);
        int messages = 300;
        UdRun run = udRun("reorder", faults, messages, 20); // the tail releases a held-back last message
        List<Long> data = run.sequences().stream().filter(s -> s < messages).toList();
        assertThat(data)
                .as("reordering only: each message exactly once (seed=%d)", SEED)
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.range(0, messages).boxed().toList());
        int inversions = 0;
        for (int i = 1; i < data.size(); i++) {
            if (data.get(i) < data.get(i - 1)) {
                inversions++;
            }
        }
        assertThat(inversions)
                .as("some message overtaken (seed=%d): %s", SEED, data)
                .isPositive();
        assertThat(run.senderCounters().udSendsReorderedByFaults())
                .as("reordered counter (seed=%d)", SEED)
                .isPositive();
    }

    @Test
    default void udFaultInjectionIsReproducibleWithTheSameSeed() {
        FaultInjection faults = new FaultInjection(SEED, 0.1, 0.1, 0.1);
        UdRun first = udRun("first", faults, 200, 20);
        UdRun second = udRun("second", faults, 200, 20);
        assertThat(second.sequences())
                .as("same seed, same sends, same outcome (seed=%d)", SEED)
                .isEqualTo(first.sequences());
        assertThat(second.senderCounters().udSendsLostByFaults())
                .isEqualTo(first.senderCounters().udSendsLostByFaults());
        assertThat(second.senderCounters().udSendsDuplicatedByFaults())
                .isEqualTo(first.senderCounters().udSendsDuplicatedByFaults());
        assertThat(second.senderCounters().udSendsReorderedByFaults())
                .isEqualTo(first.senderCounters().udSendsReorderedByFaults());
        assertThat(first.senderCounters().udSendsLostByFaults()
                        + first.senderCounters().udSendsDuplicatedByFaults()
                        + first.senderCounters().udSendsReorderedByFaults())
                .as("faults happened at all (seed=%d)", SEED)
                .isPositive();
    }
}
