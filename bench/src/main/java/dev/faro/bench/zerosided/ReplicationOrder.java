package dev.faro.bench.zerosided;

import dev.faro.bench.report.ResultTable;
import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * V8 and V9 of the digest (SIGMOD24 Figs. 12 and 14, replication): a replication flow to three consumers, first from
 * one producer with 1 % loss, reordering and duplication injected on every link (V8: every consumer must see the
 * same sequence), then from three producers without faults (V9: each producer's share of the first half of the
 * sequence, ideally 1/3, and every consumer's throughput). Each consumer hashes the sequence it saw; the hashes must
 * agree.
 *
 * <p>Coordination code around PU threads whose loops allocate nothing.
 */
final class ReplicationOrder {

    static final String NAME = "replication";

    static final int CONSUMERS = 3;
    static final int ITEM_BYTES = 1024;

    private static final int CAPACITY = 256;
    private static final String PAPER = "Figs. 12/14: globally ordered, ~link rate at every consumer, better than DFI"
            + " multicast; producers share evenly, consumers equal";

    private ReplicationOrder() {}

    static ExperimentResult run(LinkKind link, double seconds) throws InterruptedException {
        int items = (int) Math.max(2000, 10_000 * seconds);
        List<List<String>> rows = new ArrayList<>();
        rows.add(measure(link, 1, items, new FaultInjection(11, 0.01, 0.01, 0.01)));
        rows.add(measure(link, 3, items, FaultInjection.NONE));
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("producers"),
                ResultTable.Column.text("faults"),
                ResultTable.Column.number("items"),
                ResultTable.Column.text("same order at all"),
                ResultTable.Column.text("MB/s per consumer"),
                ResultTable.Column.text("producer shares (first half)"),
                ResultTable.Column.number("switch retries"));
        String text = String.format(
                        Locale.ROOT,
                        "V8/V9 replication (Figs. 12, 14): %d consumers, %d B items; every consumer hashes the"
                                + " sequence it saw%n",
                        CONSUMERS,
                        ITEM_BYTES)
                + new ResultTable(columns, rows).format()
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of(
                        "producers",
                        "faults",
                        "items",
                        "same_order",
                        "mb_per_s_per_consumer",
                        "producer_shares",
                        "retries"),
                rows);
    }

    private static List<String> measure(LinkKind link, int producers, int items, FaultInjection faults)
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
            long startNs = System.nanoTime();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                ZeroSidedBuffer view = producerViews.get(p);
                long producer = p;
                threads.add(Thread.ofPlatform().name("replication-producer").start(() -> {
                    for (long i = 0; i < perProducer; i++) {
                        long slot;
                        while ((slot = view.claimSlot()) == ZeroSidedBuffer.NONE) {
                            LockSupport.parkNanos(50_000);
                        }
                        view.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, slot, producer << 40 | i);
                        view.push();
                    }
                    view.finish();
                }));
            }
            long[] hashes = new long[CONSUMERS];
            long[] counts = new long[CONSUMERS];
            long[] finishNs = new long[CONSUMERS];
            long[][] firstHalf = new long[CONSUMERS][producers];
            String[] errors = new String[CONSUMERS];
            int total = perProducer * producers;
            for (int c = 0; c < CONSUMERS; c++) {
                ZeroSidedBuffer view = consumerViews.get(c);
                int consumer = c;
                threads.add(Thread.ofPlatform().name("replication-consumer").start(() -> {
                    long hash = 1;
                    long[] next = new long[producers];
                    long deadline = System.nanoTime() + 120_000_000_000L;
                    while (true) {
                        long slot = view.nextSlot();
                        if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                            break;
                        }
                        if (slot == ZeroSidedBuffer.NONE) {
                            if (System.nanoTime() - deadline > 0 || rig.failure() != null) {
                                errors[consumer] = "stalled after " + counts[consumer] + " items";
                                break;
                            }
                            LockSupport.parkNanos(50_000);
                            continue;
                        }
                        long id = view.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
                        view.pop();
                        int producer = (int) (id >>> 40);
                        if ((id & ((1L << 40) - 1)) != next[producer]++ && errors[consumer] == null) {
                            errors[consumer] = "producer " + producer + "'s items out of order";
                        }
                        if (counts[consumer] < total / 2) {
                            firstHalf[consumer][producer]++;
                        }
                        hash = hash * 1_000_003 + id;
                        counts[consumer]++;
                    }
                    hashes[consumer] = hash;
                    finishNs[consumer] = System.nanoTime();
                }));
            }
            for (Thread thread : threads) {
                thread.join(150_000);
            }
            rig.check();
            boolean same = true;
            StringBuilder rates = new StringBuilder();
            for (int c = 0; c < CONSUMERS; c++) {
                if (errors[c] != null) {
                    throw new IllegalStateException("replication consumer " + c + ": " + errors[c]);
                }
                same &= hashes[c] == hashes[0] && counts[c] == total;
                rates.append(c == 0 ? "" : " / ")
                        .append(String.format(
                                Locale.ROOT,
                                "%.1f",
                                counts[c] * (double) ITEM_BYTES / ((finishNs[c] - startNs) / 1e9) / 1e6));
            }
            StringBuilder shares = new StringBuilder();
            for (int p = 0; p < producers; p++) {
                shares.append(p == 0 ? "" : " / ")
                        .append(String.format(Locale.ROOT, "%.3f", firstHalf[0][p] / (double) (total / 2)));
            }
            return List.of(
                    Integer.toString(producers),
                    faults.isEnabled() ? "1 % loss, reorder, duplicate" : "none",
                    Integer.toString(total),
                    same ? "yes" : "NO",
                    rates.toString(),
                    shares.toString(),
                    Long.toString(rig.zeroSidedSwitch().statistics().retries()));
        }
    }
}
