package dev.faro.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Static helpers of the fabric conformance suites: topology (connecting queue pairs by exchanging address bytes),
 * bounded waits for completions and conditions, concurrent tasks, and exception assertions.
 *
 * <p>Every wait is bounded by {@link #WAIT}; nothing here measures or asserts a duration.
 */
public final class FabricTesting {

    /** The bound of every wait for something the fabric should do "soon". Generous: machines are shared and slow. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    /** The seed of every randomised test; override with {@code -Dfaro.test.seed=N}. Failure messages print it. */
    public static final long SEED = Long.getLong("faro.test.seed", 0x5EED_2025L);

    public static final int KIB = 1024;

    public static final Set<Access> ALL_RIGHTS = EnumSet.allOf(Access.class);
    public static final Set<Access> NO_RIGHTS = EnumSet.noneOf(Access.class);
    public static final Set<Access> LOCAL_WRITE = EnumSet.of(Access.LOCAL_WRITE);

    /** The statuses a request may complete with when its peer closed or died. */
    public static final Set<CompletionStatus> PEER_GONE = EnumSet.of(
            CompletionStatus.RETRY_EXCEEDED, CompletionStatus.FLUSHED, CompletionStatus.REMOTE_OPERATION_ERROR);

    /** An 8-byte word of a segment, for acquire reads (coordinates: segment, offset). */
    public static final VarHandle LONG_WORD = ValueLayout.JAVA_LONG.varHandle();

    private FabricTesting() {}

    // ---------------------------------------------------------------------------------------------------- topology

    /** One side of an RC connection: its node, its completion queue (for both directions) and its queue pair. */
    public record RcEnd(Fabric fabric, CompletionQueue completionQueue, RcQueuePair queuePair) {}

    /** Two connected RC queue pairs. */
    public record RcLink(RcEnd a, RcEnd b) {}

    /** One side of UD traffic: its node, its completion queue and its queue pair. */
    public record UdEnd(Fabric fabric, CompletionQueue completionQueue, UdQueuePair queuePair) {}

    /** An RC queue pair in INIT, with its own completion queue sized exactly for its depths. */
    public static RcEnd rcEnd(Fabric fabric, int sendQueueDepth, int receiveQueueDepth) {
        CompletionQueue completionQueue = fabric.createCompletionQueue(sendQueueDepth + receiveQueueDepth);
        RcQueuePair queuePair =
                fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, sendQueueDepth, receiveQueueDepth));
        return new RcEnd(fabric, completionQueue, queuePair);
    }

    /** A UD queue pair with its own completion queue sized exactly for its depths. */
    public static UdEnd udEnd(Fabric fabric, int sendQueueDepth, int receiveQueueDepth) {
        CompletionQueue completionQueue = fabric.createCompletionQueue(sendQueueDepth + receiveQueueDepth);
        UdQueuePair queuePair =
                fabric.createUdQueuePair(QueuePairConfig.of(completionQueue, sendQueueDepth, receiveQueueDepth));
        return new UdEnd(fabric, completionQueue, queuePair);
    }

    /** Connects two RC ends to each other, exchanging their addresses as bytes, as a bootstrap channel would. */
    public static void connect(RcEnd a, RcEnd b) {
        a.queuePair().connect(a.fabric().importAddress(b.queuePair().address().toBytes()));
        b.queuePair().connect(b.fabric().importAddress(a.queuePair().address().toBytes()));
    }

    /** Two connected RC queue pairs, one on each node, with the same depths. */
    public static RcLink connectRc(Fabric a, Fabric b, int sendQueueDepth, int receiveQueueDepth) {
        RcEnd endA = rcEnd(a, sendQueueDepth, receiveQueueDepth);
        RcEnd endB = rcEnd(b, sendQueueDepth, receiveQueueDepth);
        connect(endA, endB);
        return new RcLink(endA, endB);
    }

    /** The key of {@code region} as {@code importer} sees it after receiving its bytes. */
    public static RemoteKey keyAt(Fabric importer, MemoryRegion region) {
        return importer.importRemoteKey(region.remoteKey().toBytes());
    }

    /** The address of {@code queuePair} as {@code importer} sees it after receiving its bytes. */
    public static QueuePairAddress addressAt(Fabric importer, QueuePair queuePair) {
        return importer.importAddress(queuePair.address().toBytes());
    }

    // ------------------------------------------------------------------------------------------------ completions

    /** Waits (bounded by {@link #WAIT}) for exactly {@code count} completions; fails naming {@code what} otherwise. */
    public static List<Completion> awaitCompletions(CompletionQueue completionQueue, int count, String what) {
        List<Completion> received = new ArrayList<>(count);
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (received.size() < count) {
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs <= 0) {
                fail(
                        "no completion within %s: expected %d completion(s) of %s, got %d: %s",
                        WAIT, count, what, received.size(), received);
            }
            WorkCompletion[] completions = WorkCompletion.array(count - received.size());
            int polled = completionQueue.await(
                    completions, Math.min(leftNs, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
            assertThat(polled)
                    .as("await returned more completions than the array holds")
                    .isLessThanOrEqualTo(completions.length);
            for (int i = 0; i < polled; i++) {
                received.add(Completion.of(completions[i]));
            }
        }
        return received;
    }

    /** Waits (bounded) for one completion. */
    public static Completion awaitCompletion(CompletionQueue completionQueue, String what) {
        return awaitCompletions(completionQueue, 1, what).getFirst();
    }

    /** Everything ready in the queue now (non-blocking). */
    public static List<Completion> drain(CompletionQueue completionQueue) {
        List<Completion> drained = new ArrayList<>();
        WorkCompletion[] completions = WorkCompletion.array(64);
        int polled;
        while ((polled = completionQueue.poll(completions)) > 0) {
            for (int i = 0; i < polled; i++) {
                drained.add(Completion.of(completions[i]));
            }
        }
        return drained;
    }

    /** Asserts that no completion is ready in the queue. */
    public static void assertNoCompletion(CompletionQueue completionQueue, String why) {
        assertThat(drain(completionQueue)).as("no completion expected: %s", why).isEmpty();
    }

    /** Asserts a successful completion of the given request and opcode. */
    public static void assertSuccess(Completion completion, long requestId, Opcode opcode) {
        assertThat(completion.status()).as("status of %s", completion).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.requestId()).as("request id of %s", completion).isEqualTo(requestId);
        assertThat(completion.opcode()).as("opcode of %s", completion).isEqualTo(opcode);
    }

    /** Spins, then yields, then parks briefly until {@code condition} holds; fails after {@link #WAIT}. */
    public static void awaitCondition(BooleanSupplier condition, String what) {
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        int idle = 0;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadlineNs > 0) {
                fail("not within %s: %s", WAIT, what);
            }
            idle(idle++);
        }
    }

    /** A back-off for test loops: spin, then yield, then park 50 µs. */
    public static void idle(int idleCount) {
        if (idleCount < 100) {
            Thread.onSpinWait();
        } else if (idleCount < 200) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(50_000);
        }
    }

    // ---------------------------------------------------------------------------------------------------- threads

    /** A piece of test work for {@link #runConcurrently}. */
    @FunctionalInterface
    public interface Task {
        void run() throws Exception;
    }

    /**
     * Runs the tasks on platform threads at once and waits for all of them, bounded by {@code bound}. The first failure
     * is rethrown (others are attached as suppressed); a task still running at the bound fails the test.
     */
    public static void runConcurrently(Duration bound, String what, Task... tasks) throws InterruptedException {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            Task task = tasks[i];
            Thread thread = Thread.ofPlatform().name(what + "-" + i).daemon().unstarted(() -> {
                try {
                    task.run();
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        long deadlineNs = System.nanoTime() + bound.toNanos();
        for (Thread thread : threads) {
            long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime()));
            thread.join(leftMs);
        }
        List<String> stuck =
                threads.stream().filter(Thread::isAlive).map(Thread::getName).toList();
        for (Thread thread : threads) {
            thread.interrupt();
        }
        if (!failures.isEmpty()) {
            Throwable first = failures.getFirst();
            for (Throwable other : failures.subList(1, failures.size())) {
                first.addSuppressed(other);
            }
            if (first instanceof Error error) {
                throw error;
            }
            throw new AssertionError(what + " failed (seed=" + SEED + "): " + first, first);
        }
        if (!stuck.isEmpty()) {
            fail("%s: threads %s still running after %s (seed=%d)", what, stuck, bound, SEED);
        }
    }

    // ----------------------------------------------------------------------------------------------------- errors

    /** Asserts that {@code call} throws a {@link FaroException} of {@code category} with a non-blank message. */
    public static FaroException assertFaroException(
            FaroException.Category category, String what, ThrowingCallable call) {
        return assertFaroException(EnumSet.of(category), what, call);
    }

    /** Asserts that {@code call} throws a {@link FaroException} of one of {@code categories} with a non-blank message. */
    public static FaroException assertFaroException(
            Set<FaroException.Category> categories, String what, ThrowingCallable call) {
        Throwable thrown = null;
        try {
            call.call();
        } catch (Throwable t) {
            thrown = t;
        }
        if (thrown == null) {
            fail("%s: expected a FaroException %s, but nothing was thrown", what, categories);
        }
        if (!(thrown instanceof FaroException faro)) {
            throw new AssertionError(what + ": expected a FaroException " + categories + ", got " + thrown, thrown);
        }
        assertThat(faro.category()).as("%s: category of %s", what, faro).isIn(categories);
        assertThat(faro.getMessage()).as("%s: message of %s", what, faro).isNotBlank();
        return faro;
    }
}
