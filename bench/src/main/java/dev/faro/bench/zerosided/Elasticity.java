package dev.faro.bench.zerosided;

import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.switching.SwitchControl;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * V7 of the digest (SIGMOD24 Fig. 13, elasticity): a load-balancing flow from two producers whose threads push as
 * fast as they can, to consumers each throttled to {@value #CONSUMER_RATE} items/s; a consumer is added live every
 * phase (1, 2, 3), then removed again (2, 1). The items delivered per phase, read by the switch's own thread, step
 * with the consumer count; the producers' buffers, NICs and connections are the same throughout (the producers are
 * never told).
 *
 * <p>Coordination code around PU threads whose loops allocate nothing.
 */
final class Elasticity {

    static final String NAME = "elasticity";

    static final int CONSUMER_RATE = 10_000;
    static final int[] CONSUMERS_PER_PHASE = {1, 2, 3, 2, 1};

    private static final int ITEM_BYTES = 1024;
    private static final int CAPACITY = 128;
    private static final String PAPER = "Fig. 13: aggregate bandwidth follows the number of consumers (1 -> 4 -> 1"
            + " GPUs, TPC-H Q1 SF 100); producers unaware";

    private Elasticity() {}

    static ExperimentResult run(LinkKind link, double phaseSeconds) throws Exception {
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(16 * ITEM_BYTES);
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> csv = new ArrayList<>();
        int maxConsumers = 3;
        try (SwitchRig rig = new SwitchRig(link, config)) {
            SwitchControl control = rig.control();
            int[] producers = new int[2];
            List<ZeroSidedBuffer> producerViews = new ArrayList<>();
            for (int p = 0; p < producers.length; p++) {
                SwitchRig.Buffer buffer = rig.expose(CAPACITY, ITEM_BYTES, true, false);
                producers[p] = buffer.endpoint();
                producerViews.add(buffer.view());
            }
            SwitchRig.Buffer[] consumers = new SwitchRig.Buffer[maxConsumers];
            int[] consumerEndpoints = new int[maxConsumers];
            for (int c = 0; c < maxConsumers; c++) {
                consumers[c] = rig.expose(CAPACITY, ITEM_BYTES, false, false);
                consumerEndpoints[c] = consumers[c].endpoint();
            }
            int flow = control.installLoadBalance(producers, new int[] {consumerEndpoints[0]});
            rig.start();
            AtomicBoolean stop = new AtomicBoolean();
            EndpointThreads producerThreads = new EndpointThreads();
            producerThreads.startProducers(producerViews);
            List<Thread> consumerThreads = new ArrayList<>();
            for (int c = 0; c < maxConsumers; c++) {
                ZeroSidedBuffer view = consumers[c].view();
                consumerThreads.add(
                        Thread.ofPlatform().name("elastic-consumer-" + c).start(() -> consume(view, stop)));
            }
            try {
                int active = 1;
                for (int phase = 0; phase < CONSUMERS_PER_PHASE.length; phase++) {
                    int wanted = CONSUMERS_PER_PHASE[phase];
                    while (active < wanted) {
                        control.addConsumer(flow, consumerEndpoints[active++]);
                    }
                    while (active > wanted) {
                        control.removeConsumer(consumerEndpoints[--active]);
                    }
                    long[] start = control.itemsDelivered(consumerEndpoints).get(10, TimeUnit.SECONDS);
                    long startNs = System.nanoTime();
                    long[] last = start;
                    int sample = 0;
                    while (System.nanoTime() - startNs < (long) (phaseSeconds * 1e9)) {
                        Thread.sleep(100);
                        long[] now = control.itemsDelivered(consumerEndpoints).get(10, TimeUnit.SECONDS);
                        List<String> line = new ArrayList<>(List.of(
                                Integer.toString(phase + 1),
                                Integer.toString(wanted),
                                Integer.toString(++sample),
                                String.format(Locale.ROOT, "%.3f", (System.nanoTime() - startNs) / 1e9)));
                        for (int c = 0; c < maxConsumers; c++) {
                            line.add(Long.toString(now[c] - last[c]));
                        }
                        csv.add(line);
                        last = now;
                    }
                    double seconds = (System.nanoTime() - startNs) / 1e9;
                    long items = 0;
                    for (int c = 0; c < maxConsumers; c++) {
                        items += last[c] - start[c];
                    }
                    rows.add(List.of(
                            Integer.toString(phase + 1),
                            Integer.toString(wanted),
                            String.format(Locale.ROOT, "%.0f", items / seconds),
                            Integer.toString(wanted * CONSUMER_RATE),
                            String.format(Locale.ROOT, "%.2f", items / seconds / (wanted * CONSUMER_RATE))));
                    rig.check();
                }
            } finally {
                stop.set(true);
                for (Thread thread : consumerThreads) {
                    thread.join();
                }
                producerThreads.stop();
            }
            rig.check();
        }
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.number("phase"),
                ResultTable.Column.number("consumers"),
                ResultTable.Column.number("items/s delivered"),
                ResultTable.Column.number("consumers x rate"),
                ResultTable.Column.number("ratio"));
        String text = String.format(
                        Locale.ROOT,
                        "V7 elasticity (Fig. 13): load-balancing flow, 2 producers, consumers (%d items/s each, %d B)"
                                + " added and removed live every %.1f s; producers never reconfigured%n",
                        CONSUMER_RATE,
                        ITEM_BYTES,
                        phaseSeconds)
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of(
                        "phase",
                        "consumers",
                        "sample",
                        "seconds_into_phase",
                        "items_consumer_1",
                        "items_consumer_2",
                        "items_consumer_3"),
                csv);
    }

    /** Pops at no more than {@link #CONSUMER_RATE} items/s until stopped. */
    private static void consume(ZeroSidedBuffer buffer, AtomicBoolean stop) {
        long startNs = System.nanoTime();
        long taken = 0;
        while (!stop.get()) {
            long nowNs = System.nanoTime();
            long dueNs = startNs + (taken + 1) * 1_000_000_000L / CONSUMER_RATE;
            if (dueNs - nowNs > 0) {
                LockSupport.parkNanos(Math.min(dueNs - nowNs, 1_000_000));
                continue;
            }
            long slot = buffer.nextSlot();
            if (slot < 0) {
                startNs = nowNs - taken * 1_000_000_000L / CONSUMER_RATE; // waiting builds up no credit
                LockSupport.parkNanos(100_000);
                continue;
            }
            buffer.pop();
            taken++;
        }
    }
}
