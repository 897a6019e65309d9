package dev.faro.bench.zerosided;

import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * V5 of the digest (SIGMOD24 Fig. 9, the CPU shuffle): 2 simulated nodes × 2 producer threads → 2 × 2 consumer
 * threads, a key-based N:M shuffle (16 producer buffers, 4 consumer buffers over the switch), tuple sizes swept; the
 * switch ({@link ZeroSidedTupleShuffle}) against the CPU-driven baselines: DFI-like one-sided WRITEs of source-side
 * segments on the verbs fabric ({@link DfiTupleShuffle}), TCP and MPI-like ({@link SocketTupleShuffle}); runs of one
 * tuple size interleaved. Every run checks that each tuple arrived exactly once (count and payload sum) and at the
 * consumer its key belongs to; producer fairness is the spread of the producers' finish times.
 *
 * <p>Coordination code around the shuffles' data-path loops.
 */
final class NmShuffle {

    static final String NAME = "shuffle";

    static final int NODES = 2;
    static final int THREADS_PER_NODE = 2;
    static final List<Integer> TUPLE_BYTES = List.of(16, 64, 256, 1024);

    private static final long WARMUP_TUPLES = 1 << 16;

    private static final String PAPER = "Fig. 9 (4 nodes × 4 threads): zero-sided consistently above Spark-UCX, DFI"
            + " and MPI at every tuple size, because threads post no verbs and the switch batches (no numbers in the"
            + " text)";

    private NmShuffle() {}

    /** The counting consumer of V5: tuples and the sum of their payloads. Consumer thread only. */
    static final class CountingSink implements TupleShuffle.Sink {
        private final int consumer;
        private final int consumers;
        long tuples;
        long payloadSum;
        /** Tuples whose key belongs to another consumer. */
        long misrouted;

        CountingSink(int consumer, int consumers) {
            this.consumer = consumer;
            this.consumers = consumers;
        }

        @Override
        public void accept(long key, long payload) {
            tuples++;
            payloadSum += payload;
            if (TupleShuffle.consumerOf(key, consumers) != consumer) {
                misrouted++;
            }
        }
    }

    /** V5's tuples: pseudo-random non-negative keys, payload = producer and index. */
    static final TupleShuffle.Generator GENERATOR = new TupleShuffle.Generator() {
        @Override
        public long key(int producer, long index) {
            long x = ((long) producer << 40 | index) * 0xBF58476D1CE4E5B9L;
            return (x ^ x >>> 31) & Long.MAX_VALUE;
        }

        @Override
        public long payload(int producer, long index) {
            return (long) producer << 40 | index;
        }
    };

    static ExperimentResult run(LinkKind link, double seconds, int runs) throws Exception {
        int producers = NODES * THREADS_PER_NODE;
        int consumers = NODES * THREADS_PER_NODE;
        List<TupleShuffle> shuffles = List.of(
                new ZeroSidedTupleShuffle(link, consumers),
                new DfiTupleShuffle(consumers),
                new SocketTupleShuffle(SocketTupleShuffle.Mode.STREAMING, consumers),
                new SocketTupleShuffle(SocketTupleShuffle.Mode.PHASED, consumers));
        // bytes per producer and run: 8 MiB per second of --seconds, at least 1 MiB (shorter runs were scheduling
        // noise)
        long bytesPerProducer = (long) Math.max(1 << 20, seconds * (8 << 20));
        Map<String, Map<Integer, List<Double>>> rates = new LinkedHashMap<>();
        Map<String, Map<Integer, List<Double>>> spreads = new LinkedHashMap<>();
        List<List<String>> csv = new ArrayList<>();
        for (TupleShuffle shuffle : shuffles) {
            // untimed: the first sweep point would otherwise pay every series' JIT compilation
            measure(shuffle, producers, consumers, TUPLE_BYTES.getFirst(), WARMUP_TUPLES);
        }
        for (int tupleBytes : TUPLE_BYTES) {
            long tuples = bytesPerProducer / tupleBytes;
            for (int run = 0; run < runs; run++) {
                for (TupleShuffle shuffle : shuffles) {
                    TupleShuffle.Result result = measure(shuffle, producers, consumers, tupleBytes, tuples);
                    double tuplesPerSecond = producers * tuples / (result.nanos() / 1e9);
                    rates.computeIfAbsent(shuffle.name(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(tupleBytes, k -> new ArrayList<>())
                            .add(tuplesPerSecond);
                    spreads.computeIfAbsent(shuffle.name(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(tupleBytes, k -> new ArrayList<>())
                            .add(result.finishSpread());
                    csv.add(List.of(
                            shuffle.name(),
                            Integer.toString(tupleBytes),
                            Integer.toString(run + 1),
                            Long.toString(producers * tuples),
                            String.format(Locale.ROOT, "%.1f", tuplesPerSecond),
                            String.format(Locale.ROOT, "%.4f", result.finishSpread())));
                }
            }
        }
        List<ResultTable.Column> columns = new ArrayList<>();
        columns.add(ResultTable.Column.number("tuple B"));
        for (TupleShuffle shuffle : shuffles) {
            columns.add(ResultTable.Column.number(shuffle.name() + " Mtuples/s"));
        }
        columns.add(ResultTable.Column.number("zero-sided / DFI-like"));
        columns.add(ResultTable.Column.number("zero-sided / TCP"));
        columns.add(ResultTable.Column.number("zero-sided / MPI-like"));
        for (TupleShuffle shuffle : shuffles) {
            columns.add(ResultTable.Column.number(shuffle.name() + " finish spread"));
        }
        List<List<String>> rows = new ArrayList<>();
        for (int tupleBytes : TUPLE_BYTES) {
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(tupleBytes));
            for (TupleShuffle shuffle : shuffles) {
                row.add(String.format(Locale.ROOT, "%.3f", median(rates, shuffle.name(), tupleBytes) / 1e6));
            }
            double ours = median(rates, ZeroSidedTupleShuffle.NAME, tupleBytes);
            row.add(String.format(Locale.ROOT, "%.2f", ours / median(rates, DfiTupleShuffle.NAME, tupleBytes)));
            row.add(String.format(Locale.ROOT, "%.2f", ours / median(rates, SocketTupleShuffle.TCP, tupleBytes)));
            row.add(String.format(Locale.ROOT, "%.2f", ours / median(rates, SocketTupleShuffle.MPI_LIKE, tupleBytes)));
            for (TupleShuffle shuffle : shuffles) {
                row.add(String.format(Locale.ROOT, "%.3f", median(spreads, shuffle.name(), tupleBytes)));
            }
            rows.add(row);
        }
        String text = String.format(
                        Locale.ROOT,
                        "V5 N:M shuffle (Fig. 9): %d nodes × %d producers → %d × %d consumers (%d producer and %d"
                                + " consumer buffers over the switch), median of %d run(s) of %d MiB per producer;"
                                + " every tuple checked exactly once; finish spread = (last − first producer end) ÷"
                                + " run time (0: producers served alike)%n",
                        NODES,
                        THREADS_PER_NODE,
                        NODES,
                        THREADS_PER_NODE,
                        producers * consumers,
                        consumers,
                        runs,
                        bytesPerProducer >> 20)
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of("series", "tuple_bytes", "run", "tuples", "tuples_per_second", "finish_spread"),
                csv);
    }

    /** Writes {@code result}'s plot: each series' median GB/s against the tuple size (from its CSV rows). */
    static void plot(ExperimentResult result, Path file) {
        List<PlotWriter.Line> lines = result.medianLines(1, 4, (tupleBytes, rate) -> rate * tupleBytes / 1e9);
        PlotWriter.writeLines(
                file,
                "V5 N:M shuffle, 2 x 2 producers -> 2 x 2 consumers (SIGMOD24 Fig. 9: zero-sided above every"
                        + " baseline, no numbers)",
                "tuple size (B)",
                true,
                "GB/s",
                lines);
    }

    /**
     * One run, checked: every tuple arrived once (count and payload sum over all consumers) and at the consumer its key
     * belongs to.
     */
    static TupleShuffle.Result measure(
            TupleShuffle shuffle, int producers, int consumers, int tupleBytes, long tuplesPerProducer)
            throws Exception {
        CountingSink[] sinks = new CountingSink[consumers];
        for (int c = 0; c < consumers; c++) {
            sinks[c] = new CountingSink(c, consumers);
        }
        TupleShuffle.Result result = shuffle.run(producers, tupleBytes, tuplesPerProducer, GENERATOR, sinks);
        long tuples = 0;
        long sum = 0;
        long misrouted = 0;
        for (CountingSink sink : sinks) {
            tuples += sink.tuples;
            sum += sink.payloadSum;
            misrouted += sink.misrouted;
        }
        if (misrouted != 0) {
            throw new IllegalStateException(
                    shuffle.name() + " delivered " + misrouted + " tuples to a consumer their key does not belong to");
        }
        long expectedSum = 0;
        for (int p = 0; p < producers; p++) {
            expectedSum += ((long) p << 40) * tuplesPerProducer + tuplesPerProducer * (tuplesPerProducer - 1) / 2;
        }
        if (tuples != producers * tuplesPerProducer || sum != expectedSum) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "%s lost or repeated tuples: %d of %d arrived, payload sum %d, expected %d",
                    shuffle.name(),
                    tuples,
                    producers * tuplesPerProducer,
                    sum,
                    expectedSum));
        }
        return result;
    }

    private static double median(Map<String, Map<Integer, List<Double>>> values, String series, int tupleBytes) {
        return Medians.of(values.get(series).get(tupleBytes));
    }
}
