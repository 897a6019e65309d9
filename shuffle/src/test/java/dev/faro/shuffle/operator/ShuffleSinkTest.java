package dev.faro.shuffle.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ShuffleSink.Writer} on its own, into an endpoint that records what it is given: every tuple reaches its
 * group's destinations once (with one group, as broadcast has, the vector is copied as it is), whole and in order, for tuple widths the two-word fast path does not take (1, 7, 12, 24,
 * 100 bytes) as well as 16 (scattered straight into the buffers, a run as long as the fullest buffer takes: buffers
 * of 3, 4 or 6 tuples, 1 to 9 groups), for buffers that hold a few tuples or one, and with vectors that end mid-buffer
 * or span several buffers.
 */
class ShuffleSinkTest {

    private static final int TUPLES = 5_000;

    @ParameterizedTest(name = "{0}-byte tuples, {1}-byte payloads, {2} groups")
    @CsvSource({
        "1, 64, 3",
        "7, 64, 1",
        "16, 64, 1",
        "16, 4096, 1",
        "7, 64, 3",
        "12, 100, 4",
        "16, 64, 2",
        "16, 48, 3",
        "16, 64, 4",
        "16, 4096, 5",
        "16, 100, 8",
        "16, 4096, 9",
        "24, 200, 3",
        "100, 100, 2",
        "100, 350, 7"
    })
    void everyTupleReachesItsGroupOnceWholeAndInOrder(int tupleBytes, int payloadBytes, int groups) {
        RecordingEndpoint endpoint = new RecordingEndpoint(payloadBytes);
        TransmissionGroups repartition = TransmissionGroups.repartition(groups);
        // the group is the tuple's first byte modulo the groups: any width has one
        Partitioner partitioner =
                (tuples, offset) -> Byte.toUnsignedInt(tuples.get(ValueLayout.JAVA_BYTE, offset)) % groups;
        ShuffleSink sink = new ShuffleSink(
                new NodeEndpoints(List.of(endpoint), List.of()), repartition, partitioner, tupleBytes, 1);
        ShuffleSink.Writer writer = sink.writer(0);
        SplittableRandom random = new SplittableRandom(tupleBytes * 31L + payloadBytes);
        byte[] all = new byte[TUPLES * tupleBytes];
        random.nextBytes(all);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuples = arena.allocate(all.length + 3L).asSlice(3); // no alignment to lean on
            MemorySegment.copy(MemorySegment.ofArray(all), 0, tuples, 0, all.length);
            int added = 0;
            while (added < TUPLES) {
                int vector = Math.min(TUPLES - added, 1 + random.nextInt(1200));
                writer.add(tuples, (long) added * tupleBytes, vector);
                added += vector;
            }
            writer.finish();
        }

        ByteArrayOutputStream[] expected = new ByteArrayOutputStream[groups];
        for (int group = 0; group < groups; group++) {
            expected[group] = new ByteArrayOutputStream();
        }
        for (int i = 0; i < TUPLES; i++) {
            expected[Byte.toUnsignedInt(all[i * tupleBytes]) % groups].write(all, i * tupleBytes, tupleBytes);
        }
        for (int group = 0; group < groups; group++) {
            List<Sent> toGroup = endpoint.sentTo(group);
            assertThat(toGroup).as("group %d's buffers", group).isNotEmpty();
            assertThat(toGroup)
                    .as("group %d: every buffer holds whole tuples and fits", group)
                    .allSatisfy(sent -> {
                        assertThat(sent.bytes.length % tupleBytes).isZero();
                        assertThat(sent.bytes.length).isLessThanOrEqualTo(payloadBytes);
                    });
            assertThat(toGroup.subList(0, toGroup.size() - 1))
                    .as("group %d: MORE_DATA before the last", group)
                    .allMatch(sent -> sent.state == StreamState.MORE_DATA);
            assertThat(toGroup.getLast().state)
                    .as("group %d: DEPLETED last", group)
                    .isEqualTo(StreamState.DEPLETED);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            toGroup.forEach(sent -> received.writeBytes(sent.bytes));
            assertThat(received.toByteArray())
                    .as("group %d's tuples, in order", group)
                    .isEqualTo(expected[group].toByteArray());
        }
    }

    @ParameterizedTest(name = "{0} groups")
    @CsvSource({"1", "2", "9"})
    void aBufferTooSmallForOneTupleIsRefusedWithOneLine(int groups) {
        RecordingEndpoint endpoint = new RecordingEndpoint(8);
        ShuffleSink sink = new ShuffleSink(
                new NodeEndpoints(List.of(endpoint), List.of()),
                TransmissionGroups.repartition(groups),
                (tuples, offset) -> 0,
                16,
                1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuples = arena.allocate(16 * 4);
            assertThatThrownBy(() -> sink.writer(0).add(tuples, 0, 4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("a buffer's payload holds no tuple: payloadCapacity=8, tupleBytes=16");
        }
    }

    /**
     * A yielded finish whose wait stalled is finished by the blocking form: it resumes where the non-blocking one
     * stopped (here at a refused DEPLETED), so every destination still gets exactly one DEPLETED, no buffer goes
     * twice, and a shared endpoint's thread count goes down once (one DEPLETED, from the last thread).
     */
    @ParameterizedTest(name = "{0} groups, {1} thread(s), DEPLETED #{2} refused")
    @CsvSource({"repartition, 1, 2", "repartition, 1, 3", "repartition, 2, 1", "overlapping, 1, 1"})
    void aFinishAfterATryThatStoppedEndsEveryStreamOnce(String shape, int threads, int refused) {
        RecordingEndpoint endpoint = new RecordingEndpoint(64);
        endpoint.refuseDepleted = refused;
        writeTenTuples(endpoint, shape, threads, writer -> {
            writer.tryFinish();
            writer.finish();
        });
        assertThat(endpoint.refusals).as("DEPLETED refused once").isEqualTo(1);
        int[] depleted = new int[3];
        int bytes = 0;
        for (Sent sent : endpoint.sent) {
            bytes += sent.bytes.length;
            if (sent.state == StreamState.DEPLETED) {
                for (int node : sent.destinations) {
                    depleted[node]++;
                }
            }
        }
        assertThat(depleted).as("DEPLETED per destination").containsExactly(1, 1, 1);
        assertThat(bytes).as("payload bytes sent").isEqualTo(16 * 10 * threads);
    }

    /**
     * A non-blocking finish that is never refused sends what the blocking one sends: the same messages in the same
     * order (with ME and disjoint groups each open buffer goes out as its group's DEPLETED, not as MORE_DATA followed
     * by an empty DEPLETED).
     */
    @ParameterizedTest(name = "{0} groups, {1} thread(s)")
    @CsvSource({"repartition, 1", "repartition, 2", "overlapping, 1"})
    void aTryFinishSendsTheMessagesAFinishSends(String shape, int threads) {
        assertThat(describe(finishing(shape, threads, true)))
                .isEqualTo(describe(finishing(shape, threads, false)))
                .isNotEmpty();
    }

    /** The messages of {@code threads} writers of 10 tuples each that finish by tryFinish or by finish. */
    private static List<Sent> finishing(String shape, int threads, boolean tryFinish) {
        RecordingEndpoint endpoint = new RecordingEndpoint(64);
        writeTenTuples(endpoint, shape, threads, writer -> {
            if (tryFinish) {
                assertThat(writer.tryFinish()).as("finished at once").isTrue();
            } else {
                writer.finish();
            }
        });
        return endpoint.sent;
    }

    /**
     * Has {@code threads} writers of a sink on {@code endpoint} (three nodes; "repartition" or two overlapping groups)
     * add 10 tuples each and then {@code finish} them, one after the other.
     */
    private static void writeTenTuples(
            RecordingEndpoint endpoint, String shape, int threads, Consumer<ShuffleSink.Writer> finish) {
        TransmissionGroups groups = shape.equals("repartition")
                ? TransmissionGroups.repartition(3)
                : TransmissionGroups.of(3, List.of(new int[] {0, 1}, new int[] {1, 2}));
        ShuffleSink sink = new ShuffleSink(
                new NodeEndpoints(List.of(endpoint), List.of()),
                groups,
                (tuples, offset) -> (int) (tuples.get(ValueLayout.JAVA_LONG_UNALIGNED, offset) % groups.groupCount()),
                16,
                threads);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tuples = arena.allocate(16 * 10);
            for (int i = 0; i < 10; i++) {
                tuples.set(ValueLayout.JAVA_LONG_UNALIGNED, 16L * i, i);
            }
            for (int thread = 0; thread < threads; thread++) {
                ShuffleSink.Writer writer = sink.writer(thread);
                writer.add(tuples, 0, 10);
                finish.accept(writer);
            }
        }
    }

    private static List<String> describe(List<Sent> sent) {
        return sent.stream()
                .map(message -> java.util.Arrays.toString(message.destinations()) + " " + message.state() + " "
                        + message.bytes().length + " B")
                .toList();
    }

    private record Sent(int[] destinations, StreamState state, byte[] bytes) {}

    /** Hands out fresh buffers with {@code payloadBytes} of payload and records each one it is given. */
    private static final class RecordingEndpoint implements SendEndpoint {
        private final int payloadBytes;
        private final Arena arena = Arena.ofAuto();
        private final List<Sent> sent = new ArrayList<>();
        private int acquired;
        /** Which DEPLETED {@link #canPut} refuses (1: the first), once; 0: none. */
        private int refuseDepleted;

        private int depletedChecks;
        private int refusals;

        RecordingEndpoint(int payloadBytes) {
            this.payloadBytes = payloadBytes;
        }

        @Override
        public int id() {
            return 0;
        }

        @Override
        public ShuffleBuffer acquire() {
            return new ShuffleBuffer(acquired++, arena.allocate(MessageHeaderDescriptor.LENGTH + payloadBytes));
        }

        @Override
        public boolean canPut(ShuffleBuffer buffer, int[] destinations, StreamState state) {
            if (state == StreamState.DEPLETED && ++depletedChecks == refuseDepleted) {
                refusals++;
                return false;
            }
            return true;
        }

        @Override
        public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
            byte[] bytes = buffer.payload().asSlice(0, buffer.payloadLength()).toArray(ValueLayout.JAVA_BYTE);
            sent.add(new Sent(destinations.clone(), state, bytes));
        }

        List<Sent> sentTo(int node) {
            return sent.stream()
                    .filter(s -> s.destinations.length == 1 && s.destinations[0] == node)
                    .toList();
        }

        @Override
        public void close() {}
    }
}
