package dev.faro.bench.zerosided;

import dev.faro.bench.report.Medians;
import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * V2 of the digest (SIGMOD24 Fig. 7, adaptive batching): one 1:1 flow with the switch's batch cap swept over 1, 4,
 * 16 and 64 items, for 4 KiB and 64 KiB items (the paper's 1 MiB point needs buffers larger than this host should
 * map); throughput of the consumer over a timed window, the gain over a batch of one item, and the switch's retries.
 * A 4 MiB batch is 4,096 packets in flight, more than a packet link's ring holds (2,048 slots): when the switch falls
 * behind, its ring drops, the consumer NAKs the gap, and every reissue of the whole READ meets the same fate; the
 * paper's caution (huge batches raise the retry cost under congestion) in its extreme form.
 *
 * <p>Coordination code around {@link EndpointThreads}.
 */
final class BatchingSweep {

    static final String NAME = "batching";

    static final List<Integer> ITEM_BYTES = List.of(4096, 65536);
    static final List<Integer> BATCH_ITEMS = List.of(1, 4, 16, 64);

    private static final int CAPACITY = 128;
    private static final String PAPER = "Fig. 7: batching removes most small-item overhead (large gain at 4 KiB), the"
            + " gain shrinks as items grow but stays positive; batches <= 4 MiB saturate the link";

    private BatchingSweep() {}

    static ExperimentResult run(LinkKind link, double seconds, int runs) throws InterruptedException {
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csv = new ArrayList<>();
        for (int itemBytes : ITEM_BYTES) {
            double single = Double.NaN;
            for (int batch : BATCH_ITEMS) {
                List<Double> values = new ArrayList<>();
                List<Double> retries = new ArrayList<>();
                for (int run = 0; run < runs; run++) {
                    double[] measured = measure(link, itemBytes, batch, seconds);
                    values.add(measured[0]);
                    retries.add(measured[1]);
                    csv.add(List.of(
                            Integer.toString(itemBytes),
                            Integer.toString(batch),
                            Integer.toString(run + 1),
                            String.format(Locale.ROOT, "%.1f", measured[0]),
                            String.format(Locale.ROOT, "%.0f", measured[1])));
                }
                double median = Medians.of(values);
                if (batch == 1) {
                    single = median;
                }
                rows.add(List.of(
                        Integer.toString(itemBytes),
                        Integer.toString(batch),
                        Integer.toString(batch * itemBytes >> 10),
                        String.format(Locale.ROOT, "%.3f", median / 1e9),
                        String.format(Locale.ROOT, "%.2f", median / single),
                        String.format(Locale.ROOT, "%.0f", Medians.of(retries))));
            }
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.number("item B"),
                ResultTable.Column.number("batch items"),
                ResultTable.Column.number("batch KiB"),
                ResultTable.Column.number("GB/s"),
                ResultTable.Column.number("gain over 1 item"),
                ResultTable.Column.number("switch retries"));
        String text = String.format(
                        Locale.ROOT,
                        "V2 adaptive batching (Fig. 7): one 1:1 flow, batch cap swept; median of %d run(s) of %.2f s%n",
                        runs,
                        seconds)
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME, text, List.of("item_bytes", "batch_items", "run", "bytes_per_second", "retries"), csv);
    }

    /** Returns the consumer's bytes per second and the switch's retries. */
    private static double[] measure(LinkKind link, int itemBytes, int batch, double seconds)
            throws InterruptedException {
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(batch * itemBytes);
        try (SwitchRig rig = new SwitchRig(link, config)) {
            SwitchRig.Buffer producer = rig.expose(CAPACITY, itemBytes, true, false);
            SwitchRig.Buffer consumer = rig.expose(CAPACITY, itemBytes, false, false);
            rig.control().installOneToOne(producer.endpoint(), consumer.endpoint());
            rig.start();
            EndpointThreads producers = new EndpointThreads();
            EndpointThreads consumers = new EndpointThreads();
            long windowStart = System.nanoTime() + (long) (Math.min(0.5, seconds / 4) * 1e9);
            long windowEnd = windowStart + (long) (seconds * 1e9);
            producers.startProducers(List.of(producer.view()));
            consumers.startConsumers(List.of(consumer.view()), windowStart, windowEnd);
            try {
                consumers.stop(); // they end with their window
            } finally {
                producers.stop();
            }
            rig.check();
            return new double[] {
                consumers.counted() * (double) itemBytes / seconds,
                rig.zeroSidedSwitch().statistics().retries()
            };
        }
    }
}
