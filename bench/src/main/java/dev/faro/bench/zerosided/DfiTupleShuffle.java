package dev.faro.bench.zerosided;

import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.operator.ShuffleSink;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The DFI-like baseline of the N:M shuffle (SIGMOD24 Fig. 9's DFI, digest V5): DFI's shuffle flow on the verbs
 * fabric ({@link DfiNodes}: TODS19's RDMA WRITE design, which is DFI's channel). Each producer thread is a DFI source
 * and each consumer thread a DFI target, on max(P, C) fabric nodes (producer i and consumer i share node i), and each
 * source has a private segment ring per target in the target's memory (P × C rings). A producer writes each tuple straight into the open segment of its
 * key's target ({@link ShuffleSink.Writer#payload}) and pushes a full segment with one RDMA WRITE on its own thread
 * (the CPU drives every transfer, as DFI's source threads post their own verbs); a consumer polls its segments'
 * footers and reads the tuples in place ({@link ReceiveSource#nextInPlace}). A producer ends with an end tuple to
 * every consumer (for its finish time) and DEPLETED.
 *
 * <p>Coordination code around data-path loops (allocation-free per tuple).
 */
final class DfiTupleShuffle implements TupleShuffle {

    static final String NAME = "DFI-like";

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private final int consumers;

    DfiTupleShuffle(int consumers) {
        this.consumers = consumers;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result run(int producers, int tupleBytes, long tuplesPerProducer, Generator generator, Sink[] sinks)
            throws Exception {
        int nodes = Math.max(producers, consumers);
        List<int[]> targets = new ArrayList<>();
        for (int c = 0; c < consumers; c++) {
            targets.add(new int[] {c});
        }
        TransmissionGroups groups = TransmissionGroups.of(nodes, targets);
        Partitioner partitioner = (tuples, offset) -> TupleShuffle.consumerOf(tuples.get(WORD, offset), consumers);
        try (DfiNodes dfi = DfiNodes.open("dfi-shuffle", nodes, DfiNodes.config(DfiNodes.SEGMENT_BYTES), groups)) {
            ShuffleSink.Writer[] writers = new ShuffleSink.Writer[nodes];
            for (int n = 0; n < nodes; n++) {
                writers[n] = new ShuffleSink(dfi.endpoints(n), groups, partitioner, tupleBytes, 1).writer(0);
            }
            long[][] doneAt = new long[consumers][producers];
            ShuffleThreads threads = new ShuffleThreads();
            long start = System.nanoTime();
            threads.start(
                    "dfi-consumer",
                    consumers,
                    c -> consume(
                            new ReceiveSource(dfi.endpoints(c).receiver(0), tupleBytes),
                            tupleBytes,
                            sinks[c],
                            doneAt[c],
                            start));
            threads.start(
                    "dfi-producer", producers, p -> produce(writers[p], p, tupleBytes, tuplesPerProducer, generator));
            // nodes beyond the producers only end their (empty) streams
            threads.start("dfi-idle-source", nodes - producers, i -> writers[producers + i].finish());
            try {
                threads.join();
            } catch (Exception e) {
                dfi.abandon();
                throw e;
            }
            return new Result(System.nanoTime() - start, ZeroSidedTupleShuffle.latest(doneAt, producers));
        }
    }

    private void produce(ShuffleSink.Writer writer, int producer, int tupleBytes, long tuples, Generator generator) {
        for (long i = 0; i < tuples; i++) {
            long key = generator.key(producer, i);
            append(writer, TupleShuffle.consumerOf(key, consumers), tupleBytes, key, generator.payload(producer, i));
        }
        for (int c = 0; c < consumers; c++) {
            append(writer, c, tupleBytes, END_KEY, producer);
        }
        writer.finish();
    }

    /** Writes one tuple into {@code consumer}'s open segment, pushing the segment first when it is full. */
    private static void append(ShuffleSink.Writer writer, int consumer, int tupleBytes, long key, long payload) {
        MemorySegment segment = writer.payload(consumer);
        int length = writer.length(consumer);
        if (length + tupleBytes > segment.byteSize()) {
            writer.send(consumer);
            segment = writer.payload(consumer);
            length = 0;
        }
        segment.set(WORD, length, key);
        segment.set(WORD, length + Long.BYTES, payload);
        writer.length(consumer, length + tupleBytes);
    }

    private static void consume(ReceiveSource source, int tupleBytes, Sink sink, long[] doneAt, long start) {
        int count;
        while ((count = source.nextInPlace()) > 0) {
            MemorySegment tuples = source.inPlace();
            for (int i = 0; i < count; i++) {
                long at = (long) i * tupleBytes;
                long key = tuples.get(WORD, at);
                long payload = tuples.get(WORD, at + Long.BYTES);
                if (key == END_KEY) {
                    doneAt[(int) payload] = System.nanoTime() - start;
                } else {
                    sink.accept(key, payload);
                }
            }
        }
    }
}
