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
 * V11 of the digest (SIGMOD24 Fig. 15, the distributed join): R ⋈ S on 16-byte tuples (8 B key, 8 B payload), R's
 * keys unique, S's uniform over them (every S tuple has one partner), scaled from the paper's 10 M ⋈ 10 B to 64 Ki ⋈
 * 512 Ki per second of {@code --seconds}. On 1 and 2 simulated nodes of 2 producers + 2 consumers each, the producers
 * shuffle R on the key to the consumers, which build a hash table as it streams in, then S, which they probe as it
 * streams in (build and probe overlapped with the shuffle, as in the paper). Over the switch ({@link
 * ZeroSidedTupleShuffle}) and over the CPU-driven TCP baseline ({@link SocketTupleShuffle}); every run's matches and
 * their checksum must equal a single-node hash join's.
 *
 * <p>Coordination code around the shuffles; the sinks' per-tuple paths allocate nothing.
 */
final class DistributedJoin {

    static final String NAME = "join";

    static final int THREADS_PER_NODE = 2;
    static final List<Integer> NODES = List.of(1, 2);
    static final int TUPLE_BYTES = 16;

    private static final Relations WARMUP = new Relations(1 << 14, 1 << 16);

    private static final String PAPER = "Fig. 15 (16 B tuples, up to 4 nodes × 4 + 4 threads): near-linear speedup"
            + " with nodes, on par with the CPU-driven baseline, which needs 4-8 extra driver cores (no numbers in the"
            + " text)";

    private DistributedJoin() {}

    /** The join's two relations, split over the producers round robin. */
    record Relations(long buildTuples, long probeTuples) {

        TupleShuffle.Generator build(int producers) {
            return new TupleShuffle.Generator() {
                @Override
                public long key(int producer, long index) {
                    return index * producers + producer;
                }

                @Override
                public long payload(int producer, long index) {
                    return buildPayload(key(producer, index));
                }
            };
        }

        TupleShuffle.Generator probe(int producers) {
            long keys = buildTuples;
            return new TupleShuffle.Generator() {
                @Override
                public long key(int producer, long index) {
                    long x = (index * producers + producer + 1) * 0xBF58476D1CE4E5B9L;
                    return ((x ^ x >>> 31) & Long.MAX_VALUE) % keys;
                }

                @Override
                public long payload(int producer, long index) {
                    return index * producers + producer;
                }
            };
        }

        static long buildPayload(long key) {
            return key * 3 + 1;
        }
    }

    /** A consumer's hash table (open addressing, keys stored +1 so 0 is empty): builds, then probes. */
    static final class JoinSink implements TupleShuffle.Sink {
        private final long[] keys;
        private final long[] payloads;
        private final int mask;
        boolean probing;
        long matches;
        long checksum;

        JoinSink(long expectedBuildTuples) {
            int capacity = Integer.highestOneBit((int) Math.max(16, expectedBuildTuples * 2) - 1) << 1;
            keys = new long[capacity];
            payloads = new long[capacity];
            mask = capacity - 1;
        }

        @Override
        public void accept(long key, long payload) {
            int slot = (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
            if (!probing) {
                while (keys[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = key + 1;
                payloads[slot] = payload;
                return;
            }
            while (keys[slot] != 0) {
                if (keys[slot] == key + 1) {
                    matches++;
                    checksum += payloads[slot] ^ payload;
                }
                slot = (slot + 1) & mask;
            }
        }
    }

    /** The join's matches and checksum, computed on one thread with no shuffle. */
    static long[] singleNode(Relations relations, int producers) {
        JoinSink sink = new JoinSink(relations.buildTuples());
        TupleShuffle.Generator build = relations.build(producers);
        TupleShuffle.Generator probe = relations.probe(producers);
        long buildEach = relations.buildTuples() / producers;
        long probeEach = relations.probeTuples() / producers;
        for (int p = 0; p < producers; p++) {
            for (long i = 0; i < buildEach; i++) {
                sink.accept(build.key(p, i), build.payload(p, i));
            }
        }
        sink.probing = true;
        for (int p = 0; p < producers; p++) {
            for (long i = 0; i < probeEach; i++) {
                sink.accept(probe.key(p, i), probe.payload(p, i));
            }
        }
        return new long[] {sink.matches, sink.checksum};
    }

    /**
     * Joins over {@code shuffle} on {@code nodes} simulated nodes and checks the answer.
     *
     * @return the build and probe nanoseconds
     * @throws IllegalStateException when the matches or the checksum differ from the single-node join's
     */
    static long[] measure(TupleShuffle shuffle, int nodes, Relations relations) throws Exception {
        int producers = nodes * THREADS_PER_NODE;
        int consumers = nodes * THREADS_PER_NODE;
        JoinSink[] sinks = new JoinSink[consumers];
        for (int c = 0; c < consumers; c++) {
            sinks[c] = new JoinSink(relations.buildTuples() / consumers * 2);
        }
        long build = shuffle.run(
                        producers, TUPLE_BYTES, relations.buildTuples() / producers, relations.build(producers), sinks)
                .nanos();
        for (JoinSink sink : sinks) {
            sink.probing = true; // the consumer threads have ended: the next run's threads see it
        }
        long probe = shuffle.run(
                        producers, TUPLE_BYTES, relations.probeTuples() / producers, relations.probe(producers), sinks)
                .nanos();
        long matches = 0;
        long checksum = 0;
        for (JoinSink sink : sinks) {
            matches += sink.matches;
            checksum += sink.checksum;
        }
        long[] expected = singleNode(relations, producers);
        if (matches != expected[0] || checksum != expected[1]) {
            throw new IllegalStateException(String.format(
                    Locale.ROOT,
                    "%s on %d node(s): %d matches, checksum %d; a single-node hash join finds %d, %d",
                    shuffle.name(),
                    nodes,
                    matches,
                    checksum,
                    expected[0],
                    expected[1]));
        }
        return new long[] {build, probe};
    }

    static ExperimentResult run(LinkKind link, double seconds, int runs) throws Exception {
        long scale = Math.max(1, Math.round(seconds));
        Relations relations = new Relations(scale << 16, scale << 19);
        Map<String, Map<Integer, List<Double>>> rates = new LinkedHashMap<>();
        List<List<String>> csv = new ArrayList<>();
        List<String> series = new ArrayList<>();
        for (int nodes : NODES) {
            int consumers = nodes * THREADS_PER_NODE;
            List<TupleShuffle> shuffles = List.of(
                    new ZeroSidedTupleShuffle(link, consumers),
                    new SocketTupleShuffle(SocketTupleShuffle.Mode.STREAMING, consumers));
            for (TupleShuffle shuffle : shuffles) {
                measure(shuffle, nodes, WARMUP); // untimed: JIT compilation and first connections
            }
            for (int run = 0; run < runs; run++) {
                for (TupleShuffle shuffle : shuffles) {
                    String name = label(shuffle);
                    if (!series.contains(name)) {
                        series.add(name);
                    }
                    long[] nanos = measure(shuffle, nodes, relations);
                    double tuplesPerSecond =
                            (relations.buildTuples() + relations.probeTuples()) / ((nanos[0] + nanos[1]) / 1e9);
                    rates.computeIfAbsent(name, k -> new LinkedHashMap<>())
                            .computeIfAbsent(nodes, k -> new ArrayList<>())
                            .add(tuplesPerSecond);
                    csv.add(List.of(
                            name,
                            Integer.toString(nodes),
                            Integer.toString(run + 1),
                            Long.toString(nanos[0]),
                            Long.toString(nanos[1]),
                            String.format(Locale.ROOT, "%.1f", tuplesPerSecond),
                            "yes"));
                }
            }
        }
        List<ResultTable.Column> columns = new ArrayList<>();
        columns.add(ResultTable.Column.number("nodes"));
        columns.add(ResultTable.Column.number("threads"));
        for (String name : series) {
            columns.add(ResultTable.Column.number(name + " Mtuples/s"));
        }
        columns.add(ResultTable.Column.number("zero-sided / CPU-driven"));
        for (String name : series) {
            columns.add(ResultTable.Column.number(name + " speedup over 1 node"));
        }
        columns.add(ResultTable.Column.text("answer = single-node join"));
        List<List<String>> rows = new ArrayList<>();
        for (int nodes : NODES) {
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(nodes));
            row.add(nodes * THREADS_PER_NODE + " + " + nodes * THREADS_PER_NODE);
            for (String name : series) {
                row.add(String.format(Locale.ROOT, "%.3f", median(rates, name, nodes) / 1e6));
            }
            row.add(String.format(
                    Locale.ROOT, "%.2f", median(rates, series.get(0), nodes) / median(rates, series.get(1), nodes)));
            for (String name : series) {
                row.add(String.format(
                        Locale.ROOT, "%.2f", median(rates, name, nodes) / median(rates, name, NODES.getFirst())));
            }
            row.add("yes, every run");
            rows.add(row);
        }
        String text = String.format(
                        Locale.ROOT,
                        "V11 distributed join (Fig. 15): R ⋈ S, %d ⋈ %d tuples of %d B (scaled from 10 M ⋈ 10 B),"
                                + " build and probe as the tuples stream in; tuples/s = (|R| + |S|) ÷ (build + probe"
                                + " time); median of %d run(s); the simulated nodes share this host's %d cores%n",
                        relations.buildTuples(),
                        relations.probeTuples(),
                        TUPLE_BYTES,
                        runs,
                        Runtime.getRuntime().availableProcessors())
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of("series", "nodes", "run", "build_ns", "probe_ns", "tuples_per_second", "answer_checked"),
                csv);
    }

    /** Writes {@code result}'s plot: each series' median tuples/s against the node count (from its CSV rows). */
    static void plot(ExperimentResult result, Path file) {
        List<PlotWriter.Line> lines = result.medianLines(1, 5, (nodes, rate) -> rate / 1e6);
        PlotWriter.writeLines(
                file,
                "V11 distributed join, 16 B tuples (SIGMOD24 Fig. 15: near-linear in nodes, on par with the"
                        + " CPU-driven baseline)",
                "simulated nodes (2 producers + 2 consumers each)",
                false,
                "M tuples/s",
                lines);
    }

    private static String label(TupleShuffle shuffle) {
        return shuffle.name().equals(ZeroSidedTupleShuffle.NAME)
                ? shuffle.name()
                : "CPU-driven (" + shuffle.name() + ")";
    }

    private static double median(Map<String, Map<Integer, List<Double>>> values, String series, int nodes) {
        return Medians.of(values.get(series).get(nodes));
    }
}
