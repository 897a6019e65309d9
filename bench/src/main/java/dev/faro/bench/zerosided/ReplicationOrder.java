package dev.faro.bench.zerosided;

import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * V8 and V9 of the digest (SIGMOD24 Figs. 12 and 14, replication): a replication flow to three consumers over the
 * switch, first from one producer with 1 % loss, reordering and duplication injected on every link (V8: every
 * consumer must see the same sequence), then from one and three producers without faults (V9: each producer's share
 * of the first half of the sequence, ideally 1/3, and every consumer's throughput); beside them Fig. 12's baseline,
 * the DFI-like multicast ({@link DfiReplication}) without and with global ordering, from one and three producers. Each
 * consumer hashes the sequence it saw ({@link ReplicatedSequence}); the hashes must agree for the switch and for the
 * ordered multicast (checked: a run that disagrees fails), and may differ for the unordered one with several
 * producers.
 *
 * <p>Coordination code around PU threads whose loops allocate nothing.
 */
final class ReplicationOrder {

    static final String NAME = "replication";

    static final int CONSUMERS = 3;
    static final int ITEM_BYTES = 1024;

    private static final int CAPACITY = 256;
    private static final String PAPER = "Figs. 12/14: globally ordered, ~link rate at every consumer, better than DFI"
            + " multicast with and without ordering (no numbers in the text); producers share evenly, consumers equal";

    /** A row of the table, and its consumers' mean MB/s. */
    private record Outcome(List<String> cells, double meanRate) {
        /** The table's and the CSV's row: the cells, then the mean MB/s per consumer. */
        List<String> row() {
            List<String> row = new ArrayList<>(cells);
            row.add(String.format(Locale.ROOT, "%.1f", meanRate));
            return row;
        }
    }

    private ReplicationOrder() {}

    /**
     * Runs V8/V9: the faulty and the three-producer rows once; Fig. 12's comparison (one producer, no faults: the
     * switch and the DFI-like multicast over each {@link DfiReplication.Channel}, unordered and ordered) {@code runs}
     * times, interleaved, its rows those of the median run of each series and its ratios of the medians.
     */
    static ExperimentResult run(LinkKind link, double seconds, int runs) throws Exception {
        int items = (int) Math.max(2000, 10_000 * seconds);
        // the baseline moves its items ten times as fast or more: more of them, so that its runs are not mere
        // milliseconds of a loaded host (rates are per second, so rows of different item counts compare)
        int baselineItems = (int) Math.max(items, 40_000 * seconds);
        List<DfiVariant> variants = new ArrayList<>();
        for (DfiReplication.Channel channel : DfiReplication.Channel.values()) {
            variants.add(new DfiVariant(channel, false));
            variants.add(new DfiVariant(channel, true));
        }
        for (int v = 0; seconds >= 0.5 && v < variants.size(); v++) {
            // untimed (unless a smoke test): the first runs would otherwise pay the JIT compilation of the
            // baseline's paths
            measureDfi(variants.get(v), 3, 960);
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(measure(link, 1, items, new FaultInjection(11, 0.01, 0.01, 0.01))
                .row());
        // Fig. 12 compares one producer's replication without faults (the baseline's fabric loses nothing)
        List<Outcome> zeroSided = new ArrayList<>();
        List<List<Outcome>> baselines = new ArrayList<>();
        variants.forEach(variant -> baselines.add(new ArrayList<>()));
        for (int run = 0; run < runs; run++) {
            zeroSided.add(measure(link, 1, items, FaultInjection.NONE));
            for (int v = 0; v < variants.size(); v++) {
                baselines.get(v).add(measureDfi(variants.get(v), 1, baselineItems));
            }
        }
        rows.add(median(zeroSided).row());
        StringBuilder ratios = new StringBuilder();
        for (int v = 0; v < variants.size(); v++) {
            rows.add(median(baselines.get(v)).row());
            ratios.append(String.format(
                    Locale.ROOT,
                    "  zero-sided ÷ %s: %.2f%n",
                    variants.get(v).series(),
                    median(zeroSided).meanRate() / median(baselines.get(v)).meanRate()));
        }
        rows.add(measure(link, 3, items, FaultInjection.NONE).row());
        for (DfiVariant variant : variants) {
            rows.add(measureDfi(variant, 3, baselineItems).row());
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("series"),
                ResultTable.Column.text("producers"),
                ResultTable.Column.text("faults"),
                ResultTable.Column.number("items"),
                ResultTable.Column.text("same order at all"),
                ResultTable.Column.text("MB/s per consumer"),
                ResultTable.Column.text("producer shares (first half)"),
                ResultTable.Column.text("switch retries / FETCH_ADDs"),
                ResultTable.Column.number("mean MB/s"));
        String text = String.format(
                        Locale.ROOT,
                        "V8/V9 replication (Figs. 12, 14): %d consumers, %d B items; every consumer hashes the"
                                + " sequence it saw%n",
                        CONSUMERS,
                        ITEM_BYTES)
                + new ResultTable(columns, rows).format()
                + String.format(
                        Locale.ROOT,
                        "Fig. 12, one producer, no faults, median of %d interleaved run(s) (mean MB/s per"
                                + " consumer):%n",
                        runs)
                + ratios
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of(
                        "series",
                        "producers",
                        "faults",
                        "items",
                        "same_order",
                        "mb_per_s_per_consumer",
                        "producer_shares",
                        "retries_or_fetch_adds",
                        "mean_mb_per_s_per_consumer"),
                rows);
    }

    /** Writes {@code result}'s plot: each series' mean MB/s per consumer against the producers (from its CSV rows). */
    static void plot(ExperimentResult result, Path file) {
        PlotWriter.writeLines(
                file,
                "V8/V9 replication, " + CONSUMERS + " consumers (Fig. 12: zero-sided above DFI, no numbers)",
                "producers",
                false,
                "MB/s per consumer",
                result.medianLines(1, 8, (producers, rate) -> rate));
    }

    /** The outcome of median mean rate (the upper middle one of an even count). */
    private static Outcome median(List<Outcome> outcomes) {
        List<Outcome> sorted = new ArrayList<>(outcomes);
        sorted.sort(Comparator.comparingDouble(Outcome::meanRate));
        return sorted.get(sorted.size() / 2);
    }

    /** A DFI-like multicast series: its channel, with or without global ordering. */
    private record DfiVariant(DfiReplication.Channel channel, boolean ordered) {
        String series() {
            return channel.series(ordered);
        }
    }

    private static Outcome measureDfi(DfiVariant variant, int producers, int items) throws Exception {
        int perProducer = items / producers;
        DfiReplication.Run run =
                DfiReplication.run(variant.channel(), producers, CONSUMERS, perProducer, ITEM_BYTES, variant.ordered());
        ReplicatedSequence[] consumers = run.targets();
        ReplicatedSequence.check(variant.series(), consumers);
        boolean same = ReplicatedSequence.identical(consumers);
        if (variant.ordered() && !same) {
            throw new IllegalStateException(variant.series() + ": the consumers saw different sequences");
        }
        return new Outcome(
                List.of(
                        variant.series(),
                        Integer.toString(producers),
                        "none",
                        Long.toString((long) perProducer * producers),
                        same ? "yes" : "no",
                        ReplicatedSequence.rates(consumers, ITEM_BYTES, run.startNs()),
                        ReplicatedSequence.shares(consumers),
                        variant.ordered() ? Long.toString(run.fetchAdds()) : "-"),
                ReplicatedSequence.meanRate(consumers, ITEM_BYTES, run.startNs()));
    }

    private static Outcome measure(LinkKind link, int producers, int items, FaultInjection faults)
            throws InterruptedException {
        SwitchConfig config =
                SwitchConfig.DEFAULT.withMaxBatchBytes(32 * ITEM_BYTES).withRetryTimeoutNs(2_000_000);
        try (SwitchRig rig = new SwitchRig(link, config, faults)) {
            int[] producerEndpoints = new int[producers];
            List<ZeroSidedBuffer> producerViews = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                SwitchRig.Buffer buffer = rig.expose(CAPACITY, ITEM_BYTES, true, false);
                producerEndpoints[p] = buffer.endpoint();
                producerViews.add(buffer.view());
            }
            int[] consumerEndpoints = new int[CONSUMERS];
            List<ZeroSidedBuffer> consumerViews = new ArrayList<>();
            for (int c = 0; c < CONSUMERS; c++) {
                SwitchRig.Buffer buffer = rig.expose(CAPACITY, ITEM_BYTES, false, false);
                consumerEndpoints[c] = buffer.endpoint();
                consumerViews.add(buffer.view());
            }
            rig.control().installReplication(producerEndpoints, consumerEndpoints);
            rig.start();
            int perProducer = items / producers;
            int total = perProducer * producers;
            ReplicatedSequence[] sequences = new ReplicatedSequence[CONSUMERS];
            long startNs = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                ZeroSidedBuffer view = producerViews.get(p);
                int producer = p;
                threads.add(Thread.ofPlatform().name("replication-producer").start(() -> {
                    for (long i = 0; i < perProducer; i++) {
                        long slot;
                        while ((slot = view.claimSlot()) == ZeroSidedBuffer.NONE) {
                            LockSupport.parkNanos(50_000);
                        }
                        view.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, ReplicatedSequence.id(producer, i));
                        view.push();
                    }
                    view.finish();
                }));
            }
            for (int c = 0; c < CONSUMERS; c++) {
                ZeroSidedBuffer view = consumerViews.get(c);
                ReplicatedSequence sequence = sequences[c] = new ReplicatedSequence(producers, total);
                threads.add(Thread.ofPlatform().name("replication-consumer").start(() -> {
                    long deadline = System.nanoTime() + 120_000_000_000L;
                    while (true) {
                        long slot = view.nextSlot();
                        if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                            break;
                        }
                        if (slot == ZeroSidedBuffer.NONE) {
                            if (System.nanoTime() - deadline > 0 || rig.failure() != null) {
                                sequence.fail("stalled after " + sequence.count() + " items");
                                break;
                            }
                            LockSupport.parkNanos(50_000);
                            continue;
                        }
                        long id = view.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
                        view.pop();
                        sequence.accept(id);
                    }
                    sequence.finish();
                }));
            }
            for (Thread thread : threads) {
                thread.join(150_000);
            }
            rig.check();
            ReplicatedSequence.check("zero-sided replication", sequences);
            boolean same = ReplicatedSequence.identical(sequences);
            return new Outcome(
                    List.of(
                            faults.isEnabled() ? ZeroSidedTupleShuffle.NAME + ", faults" : ZeroSidedTupleShuffle.NAME,
                            Integer.toString(producers),
                            faults.isEnabled() ? "1 % loss, reorder, duplicate" : "none",
                            Integer.toString(total),
                            same ? "yes" : "NO",
                            ReplicatedSequence.rates(sequences, ITEM_BYTES, startNs),
                            ReplicatedSequence.shares(sequences),
                            Long.toString(rig.zeroSidedSwitch().statistics().retries())),
                    ReplicatedSequence.meanRate(sequences, ITEM_BYTES, startNs));
        }
    }
}
