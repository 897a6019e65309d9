package dev.faro.bench.zerosided;

import dev.faro.bench.report.Medians;
import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * V3 of the digest (SIGMOD24 Fig. 10, polling vs doorbell): one 1:1 flow of 64 B items pushed at a fixed offered rate,
 * each carrying its push time; the consumer records push-to-pop latency. The switch learns the PUs' pointers by
 * polling them every 10, 50 or 200 µs, or from doorbells (and polls only every 10 ms). Medians and 99th percentiles.
 * The doorbell is measured twice: with the switch's and NICs' threads sleeping on their links when idle, as
 * everywhere else (the packets sent to them wake them), and spinning and yielding instead ({@link
 * SwitchRig#start(boolean)}), which shows what the sleeps and wake-ups add.
 *
 * <p>Coordination code around two PU threads whose loops allocate nothing.
 */
final class PollingLatency {

    static final String NAME = "latency";

    static final int YIELDING_DOORBELL = -1;

    /** Poll intervals in µs; 0 stands for doorbell mode, -1 for doorbell mode with a switch and NICs that never park. */
    static final List<Integer> MODES_MICROS = List.of(10, 50, 200, 0, YIELDING_DOORBELL);

    static final int ITEM_BYTES = 64;
    static final int OFFERED_PER_SECOND = 2000;

    private static final int CAPACITY = 1024;
    private static final long DOORBELL_POLL_NS = 10_000_000;
    private static final String PAPER = "Fig. 10: polling: median slightly below the poll interval; doorbell: median"
            + " ~15 us on their hardware (here: this host's floor); flat until saturation";

    private PollingLatency() {}

    static ExperimentResult run(LinkKind link, double seconds, int runs) throws InterruptedException {
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csv = new ArrayList<>();
        for (int mode : MODES_MICROS) {
            List<Double> medians = new ArrayList<>();
            List<Double> tails = new ArrayList<>();
            long samples = 0;
            for (int run = 0; run < runs; run++) {
                Histogram histogram = measure(link, mode, seconds);
                double median = histogram.getValueAtPercentile(50) / 1e3;
                double tail = histogram.getValueAtPercentile(99) / 1e3;
                medians.add(median);
                tails.add(tail);
                samples += histogram.getTotalCount();
                csv.add(List.of(
                        label(mode),
                        Integer.toString(run + 1),
                        Long.toString(histogram.getTotalCount()),
                        String.format(Locale.ROOT, "%.1f", median),
                        String.format(Locale.ROOT, "%.1f", tail)));
            }
            rows.add(List.of(
                    label(mode),
                    Long.toString(samples),
                    String.format(Locale.ROOT, "%.1f", Medians.of(medians)),
                    String.format(Locale.ROOT, "%.1f", Medians.of(tails)),
                    mode <= 0 ? "~15 us" : "slightly below " + mode + " us"));
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("pointer updates"),
                ResultTable.Column.number("items"),
                ResultTable.Column.number("median us"),
                ResultTable.Column.number("p99 us"),
                ResultTable.Column.text("paper (Fig. 10)"));
        String text = String.format(
                        Locale.ROOT,
                        "V3 latency, polling vs doorbell (Fig. 10): one 1:1 flow, %d B items offered at %d/s,"
                                + " push-to-pop; median of %d run(s) of %.2f s%n",
                        ITEM_BYTES,
                        OFFERED_PER_SECOND,
                        runs,
                        seconds)
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(NAME, text, List.of("mode", "run", "items", "median_us", "p99_us"), csv);
    }

    private static String label(int mode) {
        if (mode == YIELDING_DOORBELL) {
            return "doorbell, no parks";
        }
        return mode == 0 ? "doorbell" : "poll every " + mode + " us";
    }

    private static Histogram measure(LinkKind link, int pollMicros, double seconds) throws InterruptedException {
        boolean doorbell = pollMicros <= 0;
        SwitchConfig config = SwitchConfig.DEFAULT
                .withMaxBatchBytes(64 * ITEM_BYTES)
                .withPollIntervalNs(doorbell ? DOORBELL_POLL_NS : pollMicros * 1_000L);
        Histogram histogram = new Histogram(10_000_000_000L, 3);
        try (SwitchRig rig = new SwitchRig(link, config)) {
            SwitchRig.Buffer producer = rig.expose(CAPACITY, ITEM_BYTES, true, doorbell);
            SwitchRig.Buffer consumer = rig.expose(CAPACITY, ITEM_BYTES, false, doorbell);
            rig.control().installOneToOne(producer.endpoint(), consumer.endpoint());
            rig.start(pollMicros == YIELDING_DOORBELL);
            long startNs = System.nanoTime() + 50_000_000;
            long endNs = startNs + (long) (seconds * 1e9);
            Thread pushing =
                    Thread.ofPlatform().name("latency-producer").start(() -> produce(producer.view(), startNs, endNs));
            ZeroSidedBuffer view = consumer.view();
            long warmEndNs = startNs + (long) (Math.min(0.1, seconds / 5) * 1e9);
            int idle = 0;
            while (true) {
                long slot = view.nextSlot();
                if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                    break;
                }
                if (slot == ZeroSidedBuffer.NONE) {
                    if (System.nanoTime() - endNs > 2_000_000_000L) {
                        throw new IllegalStateException("latency flow stalled: " + rig.failure());
                    }
                    if (++idle % 256 == 0) {
                        Thread.yield(); // a PU polls its buffer, but leaves the switch and NICs a core
                    } else {
                        Thread.onSpinWait();
                    }
                    continue;
                }
                idle = 0;
                long pushedNs = view.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
                long nowNs = System.nanoTime();
                view.pop();
                if (pushedNs - warmEndNs >= 0) {
                    histogram.recordValue(Math.max(0, nowNs - pushedNs));
                }
            }
            pushing.join();
            rig.check();
        }
        return histogram;
    }

    private static void produce(ZeroSidedBuffer buffer, long startNs, long endNs) {
        long intervalNs = 1_000_000_000L / OFFERED_PER_SECOND;
        for (long k = 0; ; k++) {
            long dueNs = startNs + k * intervalNs;
            if (dueNs - endNs >= 0) {
                break;
            }
            long waitNs;
            while ((waitNs = dueNs - System.nanoTime()) > 0) {
                if (waitNs > 100_000) {
                    LockSupport.parkNanos(waitNs - 80_000);
                } else {
                    Thread.onSpinWait();
                }
            }
            long slot;
            while ((slot = buffer.claimSlot()) == ZeroSidedBuffer.NONE) {
                Thread.onSpinWait();
            }
            buffer.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, System.nanoTime());
            buffer.push();
        }
        buffer.finish();
    }
}
