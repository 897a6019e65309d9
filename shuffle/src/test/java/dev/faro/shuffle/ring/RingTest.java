package dev.faro.shuffle.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The notification ring over real RDMA WRITEs of the {@code shm} fabric (one node, two RC queue pairs connected to
 * each other): layout arithmetic, wrap-around, stale laps, and, with several producer and consumer threads under
 * the flow control the endpoints use (at most {@code capacity} entries outstanding), that every entry is taken
 * exactly once and no slot is ever written while its entry is still untaken.
 */
class RingTest {

    private static final int CAPACITY = 8;
    private static final int RINGS = 2;
    private static final int RING = 1;

    private Path directory;
    private Fabric fabric;
    private CompletionQueue completionQueue;
    private RcQueuePair producerSide;
    private RcQueuePair consumerSide;
    private MemoryRegion region;

    @BeforeEach
    void open() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-ring-test");
        fabric = Fabrics.open(FabricConfig.of("shm", "ring-test").withOption("shm.directory", directory.toString()));
        completionQueue = fabric.createCompletionQueue(2 * (64 + 1));
        producerSide = fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, 64, 1));
        consumerSide = fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, 64, 1));
        producerSide.connect(consumerSide.address());
        consumerSide.connect(producerSide.address());
        region = fabric.register(RingDescriptor.regionLength(RINGS, CAPACITY), EnumSet.of(Access.REMOTE_WRITE));
    }

    @AfterEach
    void close() throws IOException {
        fabric.close();
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    private RingConsumer consumer() {
        return new RingConsumer(
                region.segment()
                        .asSlice(RingDescriptor.ringOffset(RING, CAPACITY), RingDescriptor.ringStride(CAPACITY)),
                CAPACITY);
    }

    private RingProducer producer() {
        return new RingProducer(
                fabric.importRemoteKey(region.remoteKey().toBytes()),
                RingDescriptor.ringOffset(RING, CAPACITY),
                CAPACITY);
    }

    private long sequenceWord(long index) {
        return region.segment()
                .get(
                        ValueLayout.JAVA_LONG,
                        RingDescriptor.ringOffset(RING, CAPACITY)
                                + RingDescriptor.slotOffset(index, CAPACITY)
                                + RingDescriptor.SEQUENCE_OFFSET);
    }

    /** Posts signaled and polls the completion at once, so the send queue never fills. */
    private void post(WorkRequest request) {
        synchronized (producerSide) {
            producerSide.postSend(request.signaled(true));
            WorkCompletion[] completions = WorkCompletion.array(1);
            assertThat(completionQueue.poll(completions)).isEqualTo(1);
            assertThat(completions[0].status().isSuccess())
                    .as("%s", completions[0])
                    .isTrue();
        }
    }

    @Test
    void capacityIsAPowerOfTwoThatHoldsTheOutstandingEntries() {
        assertThat(RingDescriptor.capacityFor(1)).isEqualTo(RingDescriptor.MIN_CAPACITY);
        assertThat(RingDescriptor.capacityFor(8)).isEqualTo(8);
        assertThat(RingDescriptor.capacityFor(9)).isEqualTo(16);
        assertThat(RingDescriptor.capacityFor(100)).isEqualTo(128);
        assertThatThrownBy(() -> RingDescriptor.checkCapacity(12)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RingDescriptor.checkCapacity(4)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RingDescriptor.ringOffset(3, 16) % RingDescriptor.RING_ALIGNMENT)
                .isZero();
        long entry = RingDescriptor.entry(123_456, 65_536);
        assertThat(RingDescriptor.bufferIndex(entry)).isEqualTo(123_456);
        assertThat(RingDescriptor.lengthBytes(entry)).isEqualTo(65_536);
        assertThat(entry).isNotEqualTo(RingDescriptor.EMPTY);
    }

    @Test
    void wrapsAroundManyLapsInOrderAndClearsEverySlot() {
        RingProducer producer = producer();
        RingConsumer consumer = consumer();
        WorkRequest request = new WorkRequest();
        MemorySegment staging = Arena.ofAuto().allocate(RingDescriptor.SLOT_LENGTH, 8);
        assertThat(consumer.poll()).isEqualTo(RingDescriptor.EMPTY);
        int total = 10 * CAPACITY + 3;
        int next = 0;
        for (int i = 0; i < total; i++) {
            assertThat(producer.prepare(request, staging, 7, i, 3 * i)).isEqualTo(i);
            post(request);
            if (i % 3 == 2 || i == total - 1) { // consume in bursts, never more than the capacity behind
                while (next <= i) {
                    long entry = consumer.poll();
                    assertThat(entry).as("entry %d", next).isNotEqualTo(RingDescriptor.EMPTY);
                    assertThat(RingDescriptor.bufferIndex(entry)).isEqualTo(next);
                    assertThat(RingDescriptor.lengthBytes(entry)).isEqualTo(3 * next);
                    assertThat(sequenceWord(next))
                            .as("slot of %d cleared after use", next)
                            .isZero();
                    next++;
                }
                assertThat(consumer.poll()).isEqualTo(RingDescriptor.EMPTY);
            }
        }
        assertThat(consumer.consumed()).isEqualTo(total);
        assertThat(producer.produced()).isEqualTo(total);
        for (int slot = 0; slot < CAPACITY; slot++) {
            assertThat(sequenceWord(slot)).isZero();
        }
        // the neighbouring ring of the region was never touched
        MemorySegment other =
                region.segment().asSlice(RingDescriptor.ringOffset(0, CAPACITY), RingDescriptor.ringStride(CAPACITY));
        assertThat(other.mismatch(Arena.ofAuto().allocate(other.byteSize()))).isEqualTo(-1L);
    }

    @Test
    void anEntryOfAnEarlierLapIsNotTakenForANewOne() {
        RingConsumer consumer = consumer();
        MemorySegment ring = region.segment()
                .asSlice(RingDescriptor.ringOffset(RING, CAPACITY), RingDescriptor.ringStride(CAPACITY));
        // a full lap written and taken
        for (long index = 0; index < CAPACITY; index++) {
            RingDescriptor.encode(ring.asSlice(RingDescriptor.slotOffset(index, CAPACITY), 16), 1, 1, index);
            assertThat(consumer.poll()).isNotEqualTo(RingDescriptor.EMPTY);
        }
        // slot 0 holds a stale entry of lap 0 again (say, a clear that was lost): the consumer expects index 8
        RingDescriptor.encode(ring.asSlice(0, 16), 5, 5, 0);
        assertThat(consumer.hasEntry()).isFalse();
        assertThat(consumer.poll()).isEqualTo(RingDescriptor.EMPTY);
        RingDescriptor.encode(ring.asSlice(0, 16), 6, 6, CAPACITY);
        assertThat(RingDescriptor.bufferIndex(consumer.poll())).isEqualTo(6);
    }

    /**
     * Two producer and two consumer threads; a semaphore of {@code capacity} permits is the flow control (a producer
     * takes one before it claims an index; a consumer returns one after it took an entry). Before each WRITE the
     * producer checks that the entry a lap earlier in the same slot was taken already.
     */
    @RepeatedTest(20)
    void neverOverwritesASlotBeforeItsEntryWasTaken() throws Exception {
        RingProducer producer = producer();
        RingConsumer consumer = consumer();
        int perProducer = 2_000;
        int producers = 2;
        int total = perProducer * producers;
        Semaphore outstanding = new Semaphore(CAPACITY);
        AtomicLongArray seen = new AtomicLongArray(total);
        AtomicLongArray overwrites = new AtomicLongArray(1);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int first = p * perProducer;
                runs.add(threads.submit(() -> {
                    WorkRequest request = new WorkRequest();
                    MemorySegment staging = Arena.ofAuto().allocate(RingDescriptor.SLOT_LENGTH, 8);
                    for (int i = 0; i < perProducer; i++) {
                        outstanding.acquireUninterruptibly();
                        long index = producer.prepare(request, staging, 1, first + i, 0);
                        if (consumer.consumed() <= index - CAPACITY) {
                            overwrites.incrementAndGet(0);
                        }
                        long previous = sequenceWord(index);
                        if (previous != 0 && previous != index - CAPACITY + 1) {
                            overwrites.incrementAndGet(0); // an untaken entry, or garbage, in our way
                        }
                        post(request);
                        if (i % 64 == 0) {
                            Thread.yield();
                        }
                    }
                    return null;
                }));
            }
            AtomicLongArray taken = new AtomicLongArray(1);
            for (int c = 0; c < 2; c++) {
                runs.add(threads.submit(() -> {
                    while (taken.get(0) < total) {
                        long entry = consumer.poll();
                        if (entry == RingDescriptor.EMPTY) {
                            Thread.onSpinWait();
                            continue;
                        }
                        seen.incrementAndGet(RingDescriptor.bufferIndex(entry));
                        taken.incrementAndGet(0);
                        outstanding.release();
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(overwrites.get(0))
                .as("writes into a slot whose entry was not taken")
                .isZero();
        for (int i = 0; i < total; i++) {
            assertThat(seen.get(i)).as("times entry %d was taken", i).isEqualTo(1);
        }
        assertThat(consumer.consumed()).isEqualTo(total);
        assertThat(consumer.poll()).isEqualTo(RingDescriptor.EMPTY);
    }
}
