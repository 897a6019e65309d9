package dev.faro.fabric.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FabricCapabilities;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricCounters;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.UdQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The heap completion ring that net and ucx share: many producers, exactly once, overrun, close, retiring. */
class HeapCompletionQueueTest {

    private static final FabricCapabilities CAPABILITIES = new FabricCapabilities(false, 0, 64, 1 << 20, 64, 1 << 10);

    @Test
    void everyCompletionOfManyProducersIsPolledExactlyOnceInEachProducersOrder() throws Exception {
        int producers = 4;
        int perProducer = 20_000;
        int capacity = 64;
        FakeFabric fabric = new FakeFabric();
        HeapCompletionQueue queue = (HeapCompletionQueue) fabric.createCompletionQueue(capacity);
        AtomicInteger credits = new AtomicInteger(capacity); // producers never overrun: the poller gives credit back
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            long producer = p;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perProducer; i++) {
                    while (true) {
                        int available = credits.get();
                        if (available > 0 && credits.compareAndSet(available, available - 1)) {
                            break;
                        }
                        Thread.onSpinWait();
                    }
                    queue.offer(
                            (producer << 32) | i,
                            CompletionStatus.SUCCESS,
                            Opcode.RECEIVE,
                            i,
                            0,
                            false,
                            null,
                            0,
                            1,
                            0,
                            0);
                }
            }));
        }
        long[] next = new long[producers];
        WorkCompletion[] completions = WorkCompletion.array(16);
        long received = 0;
        while (received < (long) producers * perProducer) {
            int count = queue.await(completions, 30, TimeUnit.SECONDS);
            assertThat(count).as("a completion was lost after %d", received).isPositive();
            for (int i = 0; i < count; i++) {
                int producer = (int) (completions[i].requestId() >>> 32);
                long sequence = completions[i].requestId() & 0xFFFF_FFFFL;
                assertThat(sequence).as("producer %d", producer).isEqualTo(next[producer]);
                next[producer]++;
            }
            received += count;
            credits.addAndGet(count);
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        assertThat(queue.poll(completions)).isZero();
    }

    @Test
    void anOverrunDropsWhatDoesNotFitAndTheNextEmptyPollSaysSo() {
        HeapCompletionQueue queue = (HeapCompletionQueue) new FakeFabric().createCompletionQueue(4);
        for (int i = 0; i < 5; i++) {
            queue.offer(i, CompletionStatus.SUCCESS, Opcode.SEND, 0, 0, false, null, 0, 1, 0, 0);
        }
        WorkCompletion[] completions = WorkCompletion.array(8);
        assertThat(queue.poll(completions)).isEqualTo(4);
        assertThatThrownBy(() -> queue.poll(completions))
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("overran")
                .extracting(e -> ((FaroException) e).category())
                .isEqualTo(FaroException.Category.QUEUE_FULL);
    }

    @Test
    void pollingASendCompletionFreesItsSendQueueUpToItsPostSequence() {
        HeapCompletionQueue queue = (HeapCompletionQueue) new FakeFabric().createCompletionQueue(4);
        SendQueue<FakeRegion, FakeSend> sends = new SendQueue<>(new FakeSend[] {new FakeSend()});
        WorkRequest request = new WorkRequest().clear().requestId(7);
        sends.post(request, null, 1);
        assertThatThrownBy(() -> sends.post(request, null, 1))
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("send queue of queue pair 1 is full");
        sends.complete(1, CompletionStatus.SUCCESS, queue, 1, true);
        assertThatThrownBy(() -> sends.post(request, null, 1))
                .as("completed but not yet polled: still in use")
                .isInstanceOf(FaroException.class);
        WorkCompletion[] completions = WorkCompletion.array(4);
        assertThat(queue.poll(completions)).isEqualTo(1);
        assertThat(completions[0].requestId()).isEqualTo(7);
        sends.post(request, null, 1);
    }

    @Test
    void closeWakesAWaiterWhichThenFindsTheQueueClosed() throws Exception {
        HeapCompletionQueue queue = (HeapCompletionQueue) new FakeFabric().createCompletionQueue(4);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                queue.await(WorkCompletion.array(1), 60, TimeUnit.SECONDS);
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() - deadlineNs < 0) {
            Thread.yield(); // until it parked (past its spin)
        }
        queue.close();
        waiter.join(TimeUnit.SECONDS.toMillis(30)); // a lost wake-up would park for 60 s
        assertThat(waiter.isAlive()).as("the waiter was not woken by close").isFalse();
        assertThat(thrown.get())
                .isInstanceOf(FaroException.class)
                .extracting(e -> ((FaroException) e).category())
                .isEqualTo(FaroException.Category.CLOSED);
    }

    private static final class FakeQueue extends HeapCompletionQueue {
        FakeQueue(AbstractFabric<?, ?> fabric, int id, int capacity) {
            super(fabric, id, capacity);
        }
    }

    private static final class FakeRegion extends AbstractMemoryRegion {
        FakeRegion() {
            super(MemorySegment.NULL, null, 0, 0, Set.of());
        }

        @Override
        protected void withdraw() {}

        @Override
        protected void free() {}
    }

    private static final class FakeSend extends PostedSend<FakeRegion, RemoteKey> {
        FakeSend() {
            super(MemorySegment.NULL, RemoteKey.class);
        }

        @Override
        protected void filled(WorkRequest request) {}
    }

    /** Only what a completion queue needs of its node. */
    private static final class FakeFabric extends AbstractFabric<FakeRegion, FakeQueue> {
        FakeFabric() {
            super(FabricConfig.of("fake", "fake"), 1, "fake", CAPABILITIES, FakeQueue.class);
        }

        @Override
        protected FakeRegion newRegion(int id, int key, long lengthBytes, Set<Access> access) {
            return new FakeRegion();
        }

        @Override
        protected void addRegion(FakeRegion region) {}

        @Override
        protected void discardRegion(FakeRegion region) {}

        @Override
        protected FakeQueue newCompletionQueue(int id, int capacity) {
            return new FakeQueue(this, id, capacity);
        }

        @Override
        protected void shutDown() {}

        @Override
        protected void releaseMemory() {}

        @Override
        public RcQueuePair createRcQueuePair(QueuePairConfig config) {
            throw new UnsupportedOperationException();
        }

        @Override
        public UdQueuePair createUdQueuePair(QueuePairConfig config) {
            throw new UnsupportedOperationException();
        }

        @Override
        public RemoteKey importRemoteKey(byte[] bytes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public QueuePairAddress importAddress(byte[] bytes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FabricCounters counters() {
            return new FabricCounters(0, 0, 0, 0, 0, 0, 0);
        }
    }
}
