package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static dev.faro.fabric.TestPayloads.mismatch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricTesting.RcLink;
import dev.faro.fabric.FabricTesting.Task;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * One-sided operations: a WRITE's last 8-byte word becomes visible last, and READ, WRITE and the atomics need no
 * activity at the target.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface OneSidedConformance extends FabricNodes {

    @Test
    default void aWritesLastWordBecomesVisibleLast() throws Exception {
        Fabric a = open("a");
        Fabric b = open("b");
        int rounds = 2000;
        int bytes = 64 * KIB;
        RcLink link = connectRc(a, b, 4, 1);
        MemoryRegion target = b.register(bytes, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(bytes, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        int[] lengths = new int[rounds];
        for (int round = 0; round < rounds; round++) {
            lengths[round] = round % 2 == 0
                    ? bytes
                    : 8 * (1 + (int) Long.remainderUnsigned(TestPayloads.mix(SEED, round), bytes / 8));
        }
        AtomicLong published = new AtomicLong(-1);
        AtomicLong checked = new AtomicLong(-1);
        AtomicReference<String> problem = new AtomicReference<>();
        MemorySegment seen = target.segment();

        Task reader = () -> {
            for (int round = 0; round < rounds && problem.get() == null; round++) {
                final int r = round;
                awaitCondition(() -> published.get() >= r || problem.get() != null, "writer publishes round " + r);
                long lastOffset = lengths[round] - 8L;
                long deadlineNs = System.nanoTime() + WAIT.toNanos();
                int spins = 0;
                while ((long) LONG_WORD.getAcquire(seen, lastOffset) != marker(round)) {
                    if ((++spins & 0x3FF) == 0 && System.nanoTime() - deadlineNs > 0) {
                        problem.compareAndSet(null, "round " + round + ": last word never became visible");
                        return;
                    }
                    Thread.onSpinWait();
                }
                long roundSeed = TestPayloads.mix(SEED, round + 1_000_000L);
                for (long w = 0; w < lastOffset / 8; w++) {
                    long value = seen.get(ValueLayout.JAVA_LONG, w * 8);
                    if (value != TestPayloads.mix(roundSeed, w)) {
                        problem.compareAndSet(
                                null,
                                "round " + round + " (length " + lengths[round] + "): last word visible but word " + w
                                        + " still old");
                        return;
                    }
                }
                checked.set(round);
            }
        };
        Task writer = () -> {
            WorkRequest request = new WorkRequest();
            for (int round = 0; round < rounds && problem.get() == null; round++) {
                int length = lengths[round];
                long roundSeed = TestPayloads.mix(SEED, round + 1_000_000L);
                for (long w = 0; w < length / 8 - 1; w++) {
                    source.segment().set(ValueLayout.JAVA_LONG, w * 8, TestPayloads.mix(roundSeed, w));
                }
                source.segment().set(ValueLayout.JAVA_LONG, length - 8L, marker(round));
                published.set(round);
                link.a()
                        .queuePair()
                        .postSend(request.clear()
                                .requestId(round)
                                .opcode(Opcode.WRITE)
                                .local(source, 0, length)
                                .remote(key, 0));
                assertSuccess(
                        awaitCompletion(link.a().completionQueue(), "WRITE of round " + round), round, Opcode.WRITE);
                final int r = round;
                awaitCondition(() -> checked.get() >= r || problem.get() != null, "reader checks round " + r);
            }
        };
        runConcurrently(WAIT.multipliedBy(4), "write-visibility", reader, writer);
        assertThat(problem.get()).as("seed=%d", SEED).isNull();
        assertThat(checked.get()).isEqualTo(rounds - 1);
    }

    private static long marker(int round) {
        return 0x4000_0000_0000_0000L | (round + 1);
    }

    // ============================================================================================= one-sidedness

    @Test
    default void oneSidedOperationsNeedNoActivityAtTheTarget() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion target =
                b.register(8192, EnumSet.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        link.b().queuePair().postReceive(1, receiveBuffer, 0, 4096);
        FabricCounters targetBefore = b.counters();
        MemoryRegion local = a.register(8192, ALL_RIGHTS);
        fill(local.segment(), 0, 4096, 151);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();

        // From here on, b's threads do nothing: this thread only posts on a and polls a's queue.
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(local, 0, 4096)
                        .remote(key, 0));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.READ)
                        .local(local, 4096, 4096)
                        .remote(key, 0));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(3)
                        .opcode(Opcode.FETCH_ADD)
                        .local(local, 0, 8)
                        .remote(key, 4096)
                        .add(10));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(4)
                        .opcode(Opcode.COMPARE_SWAP)
                        .local(local, 8, 8)
                        .remote(key, 4096)
                        .compareSwap(10, 20));
        List<Completion> completions = awaitCompletions(link.a().completionQueue(), 4, "one-sided operations");
        assertThat(completions).extracting(Completion::requestId).containsExactly(1L, 2L, 3L, 4L);
        assertThat(completions).allMatch(Completion::isSuccess, "all succeed: " + completions);

        assertThat(mismatch(local.segment(), 4096, 4096, 151))
                .as("READ returned what WRITE put")
                .isEqualTo(-1);
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 0))
                .as("FETCH_ADD old value")
                .isZero();
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 8))
                .as("COMPARE_SWAP old value")
                .isEqualTo(10);
        assertThat(target.segment().get(ValueLayout.JAVA_LONG, 4096)).isEqualTo(20);
        assertNoCompletion(link.b().completionQueue(), "the target learns nothing of one-sided operations");
        assertThat(link.b().queuePair().postedReceives())
                .as("no receive consumed")
                .isEqualTo(1);
        assertThat(b.counters()).as("the target's counters").isEqualTo(targetBefore);
    }
}
