package dev.faro.zerosided;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.Psn;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.switching.SwitchStatistics;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Flows through the switch on the in-process packet fabric, with 1 % loss, reordering and duplication on every link
 * (so at every protocol step: READ, responses, WRITEs, ACKs, pointer WRITEs): exactly-once, in-order delivery per
 * producer–consumer pair, the end of stream, the payload bound, and no communication on the PU threads.
 */
class ZeroSidedFlowTest {

    private static final FaultInjection ONE_PERCENT = new FaultInjection(42, 0.01, 0.01, 0.01);
    private static final SwitchConfig CONFIG = SwitchConfig.DEFAULT.withRetryTimeoutNs(2_000_000);
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(15);

    @Test
    void oneToOneDeliversExactlyOnceInOrderUnderFaults() throws Exception {
        // PSNs start just below the 24-bit wrap, so the flow crosses it
        try (Testbed bed = new Testbed(CONFIG, ONE_PERCENT, 0, 2)) {
            oneToOneDeliversExactlyOnceInOrder(bed, 64, Psn.MASK - 40, Psn.MASK - 10, 8_000);
        }
    }

    /**
     * A 1:1 flow of {@code items} items of {@code itemBytes} between NIC 0 and NIC 1 of {@code bed} (whose links inject
     * faults), PSNs starting at the two values given: exactly-once in-order delivery, the end of stream, recovered
     * faults, the payload bound, no PU communication. Shared with the flow over other links ({@code ShmLinkFlowTest}).
     */
    static void oneToOneDeliversExactlyOnceInOrder(
            Testbed bed, int itemBytes, int producerPsn, int consumerPsn, int items) throws Exception {
        Testbed.Exposed source = bed.expose(0, 64, itemBytes, true, producerPsn);
        Testbed.Exposed sink = bed.expose(1, 32, itemBytes, false, consumerPsn);
        int flow = bed.zeroSidedSwitch.control().installOneToOne(source.switchQueuePair(), sink.switchQueuePair());
        ZeroSidedBuffer producer = source.exposure().view(null);
        ZeroSidedBuffer consumer = sink.exposure().view(null);
        bed.start();
        Thread producing = Thread.ofPlatform().start(() -> produce(producer, 0, items));
        List<Long> received = consume(consumer, bed);
        producing.join();

        assertThat(received).hasSize(items);
        for (int i = 0; i < items; i++) {
            assertThat(received.get(i)).as("item %d", i).isEqualTo(Items.id(0, i));
        }
        SwitchStatistics statistics = bed.zeroSidedSwitch.statistics();
        assertThat(awaitFinished(bed, flow)).isTrue();
        assertThat(statistics.failure()).isNull();
        assertThat(statistics.retries())
                .as("faults were injected and recovered from")
                .isPositive();
        assertThat(statistics.payloadHighWaterBytes()).isLessThanOrEqualTo(PacketDescriptor.DEFAULT_MTU_BYTES);
        assertThat(statistics.payloadBoundViolations()).isZero();
        assertThat(producer.communicationNanos()).isZero();
        assertThat(consumer.communicationNanos()).isZero();
        assertThat(bed.runner().failure()).isNull();
    }

    @Test
    void shuffleTwoByTwoDeliversEveryPairInOrderUnderFaults() throws Exception {
        try (Testbed bed = new Testbed(CONFIG, ONE_PERCENT, 0, 4)) {
            int producers = 2;
            int consumers = 2;
            int[][] producerBuffers = new int[producers][consumers];
            ZeroSidedBuffer[][] producerViews = new ZeroSidedBuffer[producers][consumers];
            for (int p = 0; p < producers; p++) {
                for (int c = 0; c < consumers; c++) {
                    Testbed.Exposed exposed = bed.expose(p, 16, 32, true, 0);
                    producerBuffers[p][c] = exposed.switchQueuePair();
                    producerViews[p][c] = exposed.exposure().view(null);
                }
            }
            int[] consumerBuffers = new int[consumers];
            ZeroSidedBuffer[] consumerViews = new ZeroSidedBuffer[consumers];
            for (int c = 0; c < consumers; c++) {
                Testbed.Exposed exposed = bed.expose(producers + c, 24, 32, false, 1000);
                consumerBuffers[c] = exposed.switchQueuePair();
                consumerViews[c] = exposed.exposure().view(null);
            }
            int flow = bed.zeroSidedSwitch.control().installShuffle(producerBuffers, consumerBuffers);
            bed.start();
            int itemsPerProducer = 3000;
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int producer = p;
                threads.add(Thread.ofPlatform().start(() -> {
                    // key-based: item i of producer p goes to consumer (i * 7) % consumers, one sequence per pair
                    long[] next = new long[consumers];
                    for (int i = 0; i < itemsPerProducer; i++) {
                        int c = (i * 7) % consumers;
                        push(producerViews[producer][c], Items.id(producer, next[c]++));
                    }
                    for (int c = 0; c < consumers; c++) {
                        producerViews[producer][c].finish();
                    }
                }));
            }
            List<List<Long>> received = new ArrayList<>();
            List<Thread> consuming = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                List<Long> into = new ArrayList<>();
                received.add(into);
                ZeroSidedBuffer view = consumerViews[c];
                consuming.add(Thread.ofPlatform().start(() -> into.addAll(consume(view, bed))));
            }
            for (Thread thread : consuming) {
                thread.join();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            long total = 0;
            for (int c = 0; c < consumers; c++) {
                long[] expected = new long[producers];
                for (long id : received.get(c)) {
                    int p = Items.producer(id);
                    assertThat(Items.sequence(id))
                            .as("consumer %d, producer %d", c, p)
                            .isEqualTo(expected[p]++);
                }
                total += received.get(c).size();
            }
            assertThat(total).isEqualTo((long) producers * itemsPerProducer);
            assertThat(awaitFinished(bed, flow)).isTrue();
            assertThat(bed.zeroSidedSwitch.statistics().payloadBoundViolations())
                    .isZero();
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
        }
    }

    @Test
    void loadBalancingSurvivesProducersAndConsumersAddedAndRemovedLive() throws Exception {
        try (Testbed bed = new Testbed(CONFIG, ONE_PERCENT, 0, 5)) {
            SwitchControl control = bed.zeroSidedSwitch.control();
            int[] producerBuffers = new int[3];
            ZeroSidedBuffer[] producers = new ZeroSidedBuffer[3];
            for (int p = 0; p < 3; p++) {
                Testbed.Exposed exposed = bed.expose(p % 2, 32, 16, true, 0);
                producerBuffers[p] = exposed.switchQueuePair();
                producers[p] = exposed.exposure().view(null);
            }
            int[] consumerBuffers = new int[3];
            ZeroSidedBuffer[] consumers = new ZeroSidedBuffer[3];
            for (int c = 0; c < 3; c++) {
                Testbed.Exposed exposed = bed.expose(2 + c, 16, 16, false, 0);
                consumerBuffers[c] = exposed.switchQueuePair();
                consumers[c] = exposed.exposure().view(null);
            }
            // the third producer joins later; it pushes from the start, unaware
            int flow = control.installLoadBalance(
                    new int[] {producerBuffers[0], producerBuffers[1]}, new int[] {consumerBuffers[0]});
            bed.start();
            int itemsPerProducer = 4000;
            ConcurrentLinkedQueue<Long> received = new ConcurrentLinkedQueue<>();
            AtomicLong stop = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                int producer = p;
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < itemsPerProducer; i++) {
                        push(producers[producer], Items.id(producer, i));
                    }
                    producers[producer].finish();
                }));
            }
            List<Thread> consuming = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                ZeroSidedBuffer consumer = consumers[c];
                consuming.add(Thread.ofPlatform().start(() -> drainUntil(consumer, received, stop)));
            }
            long total = 3L * itemsPerProducer;
            awaitCount(received, total / 8, bed);
            control.addProducer(flow, producerBuffers[2]);
            awaitCount(received, total / 4, bed);
            control.addConsumer(flow, consumerBuffers[1]);
            awaitCount(received, total / 2, bed);
            control.addConsumer(flow, consumerBuffers[2]);
            awaitCount(received, 3 * total / 4, bed);
            control.removeConsumer(consumerBuffers[1]);
            awaitCount(received, total, bed);
            stop.set(1);
            for (Thread thread : consuming) {
                thread.join();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(received).hasSize((int) total);
            assertThat(received).doesNotHaveDuplicates();
            assertThat(control.unsynchronizedItemsDelivered(consumerBuffers[1])).isPositive();
            assertThat(control.unsynchronizedItemsDelivered(consumerBuffers[2])).isPositive();
            assertThat(bed.zeroSidedSwitch.statistics().failure()).isNull();
        }
    }

    @Test
    void doorbellsReportPointersAndTheirTimeIsCounted() throws Exception {
        SwitchConfig slowPolls = CONFIG.withPollIntervalNs(TimeUnit.MILLISECONDS.toNanos(50));
        try (Testbed bed = new Testbed(slowPolls, FaultInjection.NONE, 0, 2)) {
            Testbed.Exposed source = bed.expose(0, 64, 64, true, 0);
            Testbed.Exposed sink = bed.expose(1, 64, 64, false, 0);
            bed.zeroSidedSwitch.control().installOneToOne(source.switchQueuePair(), sink.switchQueuePair());
            PacketLink producerLink = bed.link();
            PacketLink consumerLink = bed.link();
            ZeroSidedBuffer producer = source.exposure()
                    .view(new LinkDoorbell(
                            producerLink,
                            bed.zeroSidedSwitch.port(),
                            source.switchQueuePair(),
                            source.exposure().endpoint().baseAddress()));
            ZeroSidedBuffer consumer = sink.exposure()
                    .view(new LinkDoorbell(
                            consumerLink,
                            bed.zeroSidedSwitch.port(),
                            sink.switchQueuePair(),
                            sink.exposure().endpoint().baseAddress()));
            bed.start();
            Thread producing = Thread.ofPlatform().start(() -> produce(producer, 0, 2000));
            List<Long> received = consume(consumer, bed);
            producing.join();
            assertThat(received).hasSize(2000);
            assertThat(bed.zeroSidedSwitch.statistics().doorbells()).isPositive();
            assertThat(producer.communicationNanos()).isPositive();
        }
    }

    static void produce(ZeroSidedBuffer buffer, int producer, int items) {
        for (int i = 0; i < items; i++) {
            push(buffer, Items.id(producer, i));
        }
        buffer.finish();
    }

    static void push(ZeroSidedBuffer buffer, long id) {
        long slot;
        while ((slot = buffer.claimSlot()) == ZeroSidedBuffer.NONE) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while item " + id + " waited for a free slot");
            }
            Thread.onSpinWait();
        }
        Items.write(buffer.segment(), slot, buffer.itemBytes(), id);
        buffer.push();
    }

    static List<Long> consume(ZeroSidedBuffer buffer, Testbed bed) {
        List<Long> received = new ArrayList<>();
        long deadline = System.nanoTime() + WAIT_NS;
        while (true) {
            long slot = buffer.nextSlot();
            if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                return received;
            }
            if (slot == ZeroSidedBuffer.NONE) {
                checkProgress(bed, deadline, received.size());
                Thread.yield();
                continue;
            }
            long id = Items.read(buffer.segment(), slot, buffer.itemBytes());
            assertThat(id).as("item %d intact", received.size()).isNotNegative();
            received.add(id);
            buffer.pop();
            deadline = System.nanoTime() + WAIT_NS; // fails after WAIT_NS without progress, however slow the host
        }
    }

    private static void drainUntil(ZeroSidedBuffer buffer, ConcurrentLinkedQueue<Long> received, AtomicLong stop) {
        while (stop.get() == 0) {
            long slot = buffer.nextSlot();
            if (slot < 0) {
                Thread.yield();
                continue;
            }
            received.add(Items.read(buffer.segment(), slot, buffer.itemBytes()));
            buffer.pop();
        }
    }

    private static void awaitCount(ConcurrentLinkedQueue<Long> received, long count, Testbed bed) {
        long deadline = System.nanoTime() + WAIT_NS;
        while (received.size() < count) {
            checkProgress(bed, deadline, received.size());
            Thread.yield();
        }
    }

    /**
     * Whether flow {@code flow} is finished, waiting up to {@link #WAIT_NS} for it: a consumer can see the end of stream
     * before the switch's loop has marked the flow finished (the read is unsynchronized).
     */
    static boolean awaitFinished(Testbed bed, int flow) {
        long deadline = System.nanoTime() + WAIT_NS;
        while (!bed.zeroSidedSwitch.control().unsynchronizedFinished(flow)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    private static void checkProgress(Testbed bed, long deadline, long received) {
        SwitchStatistics s = bed.zeroSidedSwitch.statistics();
        if (System.nanoTime() - deadline > 0
                || s.failure() != null
                || bed.runner().failure() != null) {
            throw new AssertionError("no progress: received=" + received + " transfers=" + s.transfers()
                    + " retries=" + s.retries() + " polls=" + s.polls() + " failure=" + s.failure() + " agents="
                    + bed.runner().failure() + "\n"
                    + bed.zeroSidedSwitch.control().unsynchronizedDescribe()
                    + bed.nics.stream()
                            .map(n -> n.port() + ": stray=" + n.counters().strayPackets() + " ooo="
                                    + n.counters().outOfOrderPackets() + " dup="
                                    + n.counters().duplicatePackets() + " naks="
                                    + n.counters().sequenceNaksSent() + " accessNaks="
                                    + n.counters().accessNaksSent())
                            .toList());
        }
    }
}
