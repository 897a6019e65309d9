package dev.faro.bench.zerosided;

import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * V10 of the digest (SIGMOD24 Fig. 11, per-flow QoS): three 1:1 flows between two PUs whose threads push and pop as
 * fast as they can, the flows' weights changed live every phase (1:2:3, then 3:2:1, then 1:1:2); the items each flow
 * delivered, read by the switch's own thread every 100 ms. For each phase: how long after the change every flow's
 * share of an interval first lies within 10 % of its weight's share (goal: within 1 s), and the shares over the rest
 * of the phase. The PUs are not told of any change.
 *
 * <p>Coordination code around {@link EndpointThreads}.
 */
final class QosShares {

    static final String NAME = "qos";

    static final double[][] PHASES = {{1, 2, 3}, {3, 2, 1}, {1, 1, 2}};

    private static final int ITEM_BYTES = 1024;
    private static final int CAPACITY = 1024;
    private static final long SAMPLE_NS = 100_000_000;
    private static final String PAPER =
            "Fig. 11: shares follow a new ratio swiftly (weights changed every 5 s over" + " 20 s); PUs unaware";

    private QosShares() {}

    static ExperimentResult run(LinkKind link, double phaseSeconds) throws Exception {
        int flowCount = PHASES[0].length;
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(16 * ITEM_BYTES);
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csv = new ArrayList<>();
        try (SwitchRig rig = new SwitchRig(link, config)) {
            SwitchControl control = rig.control();
            int[] flows = new int[flowCount];
            int[] consumers = new int[flowCount];
            List<ZeroSidedBuffer> producerViews = new ArrayList<>();
            List<ZeroSidedBuffer> consumerViews = new ArrayList<>();
            for (int f = 0; f < flowCount; f++) {
                SwitchRig.Buffer producer = rig.expose(CAPACITY, ITEM_BYTES, true, false);
                SwitchRig.Buffer consumer = rig.expose(CAPACITY, ITEM_BYTES, false, false);
                producerViews.add(producer.view());
                consumerViews.add(consumer.view());
                consumers[f] = consumer.endpoint();
                flows[f] = control.installOneToOne(producer.endpoint(), consumer.endpoint());
            }
            rig.start();
            EndpointThreads producerThreads = new EndpointThreads();
            EndpointThreads consumerThreads = new EndpointThreads();
            long startNs = System.nanoTime();
            long endNs = startNs + (long) ((PHASES.length * phaseSeconds + 1) * 1e9);
            producerThreads.startProducers(producerViews);
            consumerThreads.startConsumers(consumerViews, startNs, endNs);
            try {
                for (int phase = 0; phase < PHASES.length; phase++) {
                    double[] weights = PHASES[phase];
                    for (int f = 0; f < flowCount; f++) {
                        control.setWeight(flows[f], weights[f]);
                    }
                    rows.add(samplePhase(control, consumers, weights, phaseSeconds, phase, csv));
                    rig.check();
                }
            } finally {
                consumerThreads.stop();
                producerThreads.stop();
            }
            rig.check();
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("weights"),
                ResultTable.Column.text("target shares"),
                ResultTable.Column.number("within 10 % after s"),
                ResultTable.Column.text("shares over the rest"),
                ResultTable.Column.number("worst deviation %"));
        String text = String.format(
                        Locale.ROOT,
                        "V10 QoS (Fig. 11): 3 backlogged 1:1 flows, %d B items, weights changed live every %.1f s,"
                                + " shares sampled every 100 ms by the switch%n",
                        ITEM_BYTES,
                        phaseSeconds)
                + new ResultTable(columns, rows).format()
                + "goal: every flow within 10 % of its weight's share within 1 s of a change\n"
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of("phase", "sample", "seconds_into_phase", "items_flow_1", "items_flow_2", "items_flow_3"),
                csv);
    }

    private static List<String> samplePhase(
            SwitchControl control,
            int[] consumers,
            double[] weights,
            double phaseSeconds,
            int phase,
            List<List<String>> csv)
            throws InterruptedException, ExecutionException, TimeoutException {
        int flowCount = weights.length;
        double weightSum = 0;
        for (double weight : weights) {
            weightSum += weight;
        }
        long phaseStart = System.nanoTime();
        long[] previous = control.itemsDelivered(consumers).get(10, TimeUnit.SECONDS);
        double settledAfter = Double.NaN;
        long[] settledCounts = null;
        long[] last = previous;
        int sample = 0;
        while (System.nanoTime() - phaseStart < (long) (phaseSeconds * 1e9)) {
            Thread.sleep(SAMPLE_NS / 1_000_000);
            long[] now = control.itemsDelivered(consumers).get(10, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - phaseStart) / 1e9;
            List<String> line = new ArrayList<>(List.of(
                    Integer.toString(phase + 1),
                    Integer.toString(++sample),
                    String.format(Locale.ROOT, "%.3f", seconds)));
            for (int f = 0; f < flowCount; f++) {
                line.add(Long.toString(now[f] - last[f]));
            }
            csv.add(line);
            if (Double.isNaN(settledAfter) && deviation(last, now, weights, weightSum) <= 0.10) {
                settledAfter = seconds;
                settledCounts = now;
            }
            last = now;
        }
        StringBuilder targets = new StringBuilder();
        StringBuilder shares = new StringBuilder();
        double worst = Double.NaN;
        if (settledCounts != null) {
            long total = 0;
            for (int f = 0; f < flowCount; f++) {
                total += last[f] - settledCounts[f];
            }
            worst = total == 0 ? Double.NaN : deviation(settledCounts, last, weights, weightSum);
            for (int f = 0; f < flowCount; f++) {
                shares.append(f == 0 ? "" : " / ")
                        .append(String.format(
                                Locale.ROOT, "%.3f", total == 0 ? 0 : (last[f] - settledCounts[f]) / (double) total));
            }
        }
        StringBuilder weightText = new StringBuilder();
        for (int f = 0; f < flowCount; f++) {
            weightText.append(f == 0 ? "" : ":").append(String.format(Locale.ROOT, "%.0f", weights[f]));
            targets.append(f == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.3f", weights[f] / weightSum));
        }
        return List.of(
                weightText.toString(),
                targets.toString(),
                Double.isNaN(settledAfter) ? "never" : String.format(Locale.ROOT, "%.1f", settledAfter),
                shares.isEmpty() ? "-" : shares.toString(),
                Double.isNaN(worst) ? "-" : String.format(Locale.ROOT, "%.1f", 100 * worst));
    }

    /** The largest relative deviation of a flow's share of the items between two counts from its weight's share. */
    private static double deviation(long[] from, long[] to, double[] weights, double weightSum) {
        long total = 0;
        for (int f = 0; f < weights.length; f++) {
            total += to[f] - from[f];
        }
        if (total == 0) {
            return Double.POSITIVE_INFINITY;
        }
        double worst = 0;
        for (int f = 0; f < weights.length; f++) {
            double target = weights[f] / weightSum;
            double share = (to[f] - from[f]) / (double) total;
            worst = Math.max(worst, Math.abs(share - target) / target);
        }
        return worst;
    }
}
