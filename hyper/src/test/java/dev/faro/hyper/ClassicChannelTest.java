package dev.faro.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.transport.ExchangeChannel;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The classic exchange's routing over in-memory unit channels of one node: a repartition's n·t groups go each to its
 * unit's channel, a broadcast is copied into every unit's channel and read by unit 0 alone, and a gather goes to unit 0.
 */
class ClassicChannelTest {

    private static final int NODES = 2;
    private static final int THREADS = 3;

    @Test
    void unitGroupsAreRecognised() {
        List<int[]> units = IntStream.range(0, NODES * THREADS)
                .mapToObj(g -> new int[] {g / THREADS})
                .toList();
        assertThat(ClassicTransport.isUnitRepartition(TransmissionGroups.of(NODES, units), NODES, THREADS))
                .isTrue();
        assertThat(ClassicTransport.isUnitRepartition(TransmissionGroups.broadcast(NODES), NODES, THREADS))
                .isFalse();
        assertThat(ClassicTransport.isUnitRepartition(TransmissionGroups.repartition(NODES), NODES, THREADS))
                .isFalse();
    }

    /** A failed query abandons the classic exchange: every unit's channel is abandoned, not closed (which may wait). */
    @Test
    void closeAndAbandonReachEveryUnit() {
        FakeChannel[] closed = channels();
        new ClassicChannel(closed, TransmissionGroups.repartition(NODES), false).close();
        FakeChannel[] abandoned = channels();
        new ClassicChannel(abandoned, TransmissionGroups.repartition(NODES), false).abandon();
        for (int unit = 0; unit < THREADS; unit++) {
            assertThat(closed[unit].ends).containsExactly("close");
            assertThat(abandoned[unit].ends).containsExactly("abandon");
        }
    }

    @Test
    void aRepartitionsGroupGoesToItsUnitsChannelAndNode() {
        FakeChannel[] units = channels();
        List<int[]> groups = IntStream.range(0, NODES * THREADS)
                .mapToObj(g -> new int[] {g / THREADS})
                .toList();
        ClassicChannel channel = new ClassicChannel(units, TransmissionGroups.of(NODES, groups), true);
        ExchangeSender sender = channel.sender(1);
        for (int group = 0; group < NODES * THREADS; group++) {
            fill(sender, group, group + 1);
            assertThat(sender.trySend(group)).isTrue();
        }
        assertThat(sender.tryFinish()).isTrue();
        for (int unit = 0; unit < THREADS; unit++) {
            // unit u's channel carried groups u (node 0) and THREADS + u (node 1), from producing thread 1
            assertThat(units[unit].sent).containsExactly("1:0:" + (unit + 1), "1:1:" + (THREADS + unit + 1));
            assertThat(units[unit].finished).containsExactly(1);
        }
    }

    @Test
    void aBroadcastIsCopiedToEveryUnitAndReadByUnitZeroAlone() {
        FakeChannel[] units = channels();
        ClassicChannel channel = new ClassicChannel(units, TransmissionGroups.broadcast(NODES), false);
        ExchangeSender sender = channel.sender(0);
        fill(sender, 0, 7);
        assertThat(sender.tryFinish()).isTrue(); // finishing sends the open broadcast buffer first
        for (FakeChannel unit : units) {
            assertThat(unit.sent).containsExactly("0:0:7");
            unit.deliver(7);
        }
        ExchangeReceiver first = channel.receiver(0);
        ShuffleBuffer buffer = first.poll();
        assertThat(buffer.payloadLength()).isEqualTo(7);
        first.release(buffer);
        assertThat(units[0].released).isEqualTo(1);
        for (int unit = 1; unit < THREADS; unit++) {
            assertThat(channel.receiver(unit).poll()).isNull(); // released its copy unread, then the end
            assertThat(units[unit].released).isEqualTo(1);
        }
        assertThat(first.poll()).isNull();
    }

    @Test
    void aGatherGoesToUnitZero() {
        FakeChannel[] units = channels();
        ClassicChannel channel = new ClassicChannel(units, TransmissionGroups.of(NODES, List.of(new int[] {0})), false);
        ExchangeSender sender = channel.sender(2);
        fill(sender, 0, 3);
        assertThat(sender.trySend(0)).isTrue();
        assertThat(units[0].sent).containsExactly("2:0:3");
        assertThat(units[1].sent).isEmpty();
    }

    private static FakeChannel[] channels() {
        FakeChannel[] units = new FakeChannel[THREADS];
        for (int unit = 0; unit < THREADS; unit++) {
            units[unit] = new FakeChannel();
        }
        return units;
    }

    /** Writes {@code bytes} bytes of value {@code bytes} into {@code group}'s open buffer. */
    private static void fill(ExchangeSender sender, int group, int bytes) {
        MemorySegment payload = sender.tryPayload(group);
        payload.asSlice(0, bytes).fill((byte) bytes);
        sender.length(group, bytes);
    }

    /** One unit's channel in memory: records what each thread sent ("thread:group:bytes"), hands out deliveries. */
    private static final class FakeChannel implements ExchangeChannel {
        final List<String> sent = new ArrayList<>();
        final List<Integer> finished = new ArrayList<>();
        final ArrayDeque<ShuffleBuffer> arrived = new ArrayDeque<>();
        /** How the channel was ended: "close" or "abandon", in order. */
        final List<String> ends = new ArrayList<>();

        int released;

        void deliver(int bytes) {
            MemorySegment segment = Arena.ofAuto().allocate(64);
            segment.asSlice(0, bytes).fill((byte) bytes);
            ShuffleBuffer buffer = new ShuffleBuffer(0, segment);
            buffer.payloadLength(bytes);
            arrived.add(buffer);
        }

        @Override
        public boolean receives() {
            return true;
        }

        @Override
        public ExchangeSender sender(int thread) {
            return new ExchangeSender() {
                private final MemorySegment[] open = new MemorySegment[NODES * THREADS];
                private final int[] length = new int[NODES * THREADS];

                @Override
                public MemorySegment payload(int group) {
                    if (open[group] == null) {
                        open[group] = Arena.ofAuto().allocate(64);
                    }
                    return open[group];
                }

                @Override
                public int length(int group) {
                    return length[group];
                }

                @Override
                public void length(int group, int bytes) {
                    length[group] = bytes;
                }

                @Override
                public void send(int group) {
                    if (length[group] > 0) {
                        assertThat(open[group].get(ValueLayout.JAVA_BYTE, length[group] - 1))
                                .isEqualTo((byte) length[group]);
                        sent.add(thread + ":" + group + ":" + length[group]);
                    }
                    open[group] = null;
                    length[group] = 0;
                }

                @Override
                public void finish() {
                    for (int group = 0; group < open.length; group++) {
                        send(group);
                    }
                    finished.add(thread);
                }
            };
        }

        @Override
        public ExchangeReceiver receiver(int thread) {
            return new ExchangeReceiver() {
                @Override
                public ShuffleBuffer take() {
                    return thread == 0 ? arrived.poll() : null;
                }

                @Override
                public void release(ShuffleBuffer buffer) {
                    released++;
                }
            };
        }

        @Override
        public int buffersHeldHighWater() {
            return 0;
        }

        @Override
        public void close() {
            ends.add("close");
        }

        @Override
        public void abandon() {
            ends.add("abandon");
        }
    }
}
