package dev.faro.bench.zerosided;

import dev.faro.bench.report.ResultTable;
import dev.faro.zerosided.link.LinkKind;
import dev.faro.zerosided.switching.SwitchConfig;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * V6 of the digest (SIGMOD24 Fig. 16, the TPC-H Q1 load-balancing use case): two producers stream the Q1 columns of
 * lineitem, three consumers aggregate Q1, each throttled to its own speed (relative 1.0, 0.6, 0.4, the digest's
 * example of a GPU, a CPU and an FPGA): a consumer may take item k only {@code k / rate} after the start, and sleeps
 * otherwise, so its speed, not the 2-core host, sets its pace. Static: a key-based shuffle, every consumer gets a third
 * of the rows; load-balanced: one load-balancing flow, each consumer takes what it frees room for. The makespan runs
 * from the start to the last consumer's end of stream; the ideal load-balanced makespan is rows / Σ rates, the static
 * one a third of the rows at the slowest rate. Every run's merged Q1 answer is checked against one computed while
 * generating the rows.
 *
 * <p>Coordination code around PU threads whose loops allocate nothing.
 */
final class Q1LoadBalancing {

    static final String NAME = "q1";

    static final double[] SPEEDS = {1.0, 0.6, 0.4};
    static final int PRODUCERS = 2;

    /** Q1's columns of a lineitem row, 40 B: quantity, price (cents), discount %, tax %, ship date, flag, status. */
    static final int ITEM_BYTES = 40;

    private static final int CAPACITY = 256;
    private static final long CUTOFF_DAY =
            LocalDate.of(1998, 12, 1).minusDays(90).toEpochDay();
    private static final int GROUPS = 6;
    private static final int FIELDS = 5; // count, quantity, price, discounted price, charge
    private static final String PAPER = "static 3.2 s -> load-balanced 2.1 s (-34 %), all consumers finish together";

    private Q1LoadBalancing() {}

    static ExperimentResult run(LinkKind link, double scaleFactor, double idealSeconds, int runs) {
        Rows rows = Rows.generate(scaleFactor);
        double speedSum = Arrays.stream(SPEEDS).sum();
        double baseRate = rows.count / (speedSum * idealSeconds);
        double idealStatic = Math.ceil(rows.count / (double) SPEEDS.length) / (baseRate * SPEEDS[SPEEDS.length - 1]);
        List<double[]> staticRuns = new ArrayList<>();
        List<double[]> balancedRuns = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            staticRuns.add(runOnce(link, rows, baseRate, false));
            balancedRuns.add(runOnce(link, rows, baseRate, true));
        }
        double staticMakespan = median(staticRuns, 0);
        double balancedMakespan = median(balancedRuns, 0);
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("mode"),
                ResultTable.Column.number("makespan s"),
                ResultTable.Column.number("ideal s"),
                ResultTable.Column.number("makespan / ideal"),
                ResultTable.Column.text("finish s (1.0 / 0.6 / 0.4)"),
                ResultTable.Column.text("rows (1.0 / 0.6 / 0.4)"));
        List<List<String>> table = new ArrayList<>();
        table.add(row("static", staticRuns, staticMakespan, idealStatic));
        table.add(row("load-balanced", balancedRuns, balancedMakespan, idealSeconds));
        List<List<String>> csv = new ArrayList<>();
        addCsv(csv, "static", staticRuns, idealStatic);
        addCsv(csv, "load-balanced", balancedRuns, idealSeconds);
        double within = Math.abs(balancedMakespan / idealSeconds - 1);
        String text = String.format(
                        Locale.ROOT,
                        "V6 TPC-H Q1 load balancing (Fig. 16): %d lineitem rows (SF %s), 2 producers, 3 consumers"
                                + " throttled to %.0f / %.0f / %.0f rows/s; median of %d run(s), Q1 answer checked"
                                + " every run%n",
                        rows.count,
                        scaleFactor,
                        baseRate * SPEEDS[0],
                        baseRate * SPEEDS[1],
                        baseRate * SPEEDS[2],
                        runs)
                + new ResultTable(columns, table).format()
                + String.format(
                        Locale.ROOT,
                        "load-balanced / static: %.2f (ideal %.2f; paper 2.1 / 3.2 = 0.66); load-balanced within"
                                + " %.1f %% of rows / sum of rates (goal: 10 %%): %s%n",
                        balancedMakespan / staticMakespan,
                        idealSeconds / idealStatic,
                        100 * within,
                        within <= 0.10 ? "met" : "NOT met")
                + "paper: " + PAPER + "\n";
        return new ExperimentResult(
                NAME,
                text,
                List.of(
                        "mode",
                        "run",
                        "makespan_s",
                        "ideal_s",
                        "finish_s_1",
                        "finish_s_2",
                        "finish_s_3",
                        "rows_1",
                        "rows_2",
                        "rows_3"),
                csv);
    }

    private static List<String> row(String mode, List<double[]> runs, double makespan, double ideal) {
        double[] median =
                runs.stream().filter(r -> r[0] == makespan).findFirst().orElse(runs.getFirst());
        return List.of(
                mode,
                String.format(Locale.ROOT, "%.3f", makespan),
                String.format(Locale.ROOT, "%.3f", ideal),
                String.format(Locale.ROOT, "%.2f", makespan / ideal),
                String.format(Locale.ROOT, "%.2f / %.2f / %.2f", median[1], median[2], median[3]),
                String.format(Locale.ROOT, "%.0f / %.0f / %.0f", median[4], median[5], median[6]));
    }

    private static void addCsv(List<List<String>> csv, String mode, List<double[]> runs, double ideal) {
        for (int run = 0; run < runs.size(); run++) {
            double[] r = runs.get(run);
            List<String> line = new ArrayList<>(List.of(mode, Integer.toString(run + 1)));
            line.add(String.format(Locale.ROOT, "%.4f", r[0]));
            line.add(String.format(Locale.ROOT, "%.4f", ideal));
            for (int i = 1; i < 7; i++) {
                line.add(String.format(Locale.ROOT, "%.4f", r[i]));
            }
            csv.add(line);
        }
    }

    private static double median(List<double[]> runs, int index) {
        double[] values = runs.stream().mapToDouble(r -> r[index]).sorted().toArray();
        return values[(values.length - 1) / 2];
    }

    /** One run: returns makespan, each consumer's finish time (s) and each consumer's row count. */
    private static double[] runOnce(LinkKind link, Rows rows, double baseRate, boolean balanced) {
        SwitchConfig config = SwitchConfig.DEFAULT.withMaxBatchBytes(128 * ITEM_BYTES);
        try (SwitchRig rig = new SwitchRig(link, config)) {
            int consumers = SPEEDS.length;
            SwitchRig.Buffer[][] producerBuffers = new SwitchRig.Buffer[PRODUCERS][balanced ? 1 : consumers];
            for (int p = 0; p < PRODUCERS; p++) {
                for (int b = 0; b < producerBuffers[p].length; b++) {
                    producerBuffers[p][b] = rig.expose(CAPACITY, ITEM_BYTES, true, false);
                }
            }
            SwitchRig.Buffer[] consumerBuffers = new SwitchRig.Buffer[consumers];
            int[] consumerEndpoints = new int[consumers];
            for (int c = 0; c < consumers; c++) {
                consumerBuffers[c] = rig.expose(CAPACITY, ITEM_BYTES, false, false);
                consumerEndpoints[c] = consumerBuffers[c].endpoint();
            }
            if (balanced) {
                int[] producers = new int[PRODUCERS];
                for (int p = 0; p < PRODUCERS; p++) {
                    producers[p] = producerBuffers[p][0].endpoint();
                }
                rig.control().installLoadBalance(producers, consumerEndpoints);
            } else {
                int[][] endpoints = new int[PRODUCERS][consumers];
                for (int p = 0; p < PRODUCERS; p++) {
                    for (int c = 0; c < consumers; c++) {
                        endpoints[p][c] = producerBuffers[p][c].endpoint();
                    }
                }
                rig.control().installShuffle(endpoints, consumerEndpoints);
            }
            rig.start();
            long startNs = System.nanoTime() + 20_000_000; // every thread has started by then
            long[][] aggregates = new long[consumers][GROUPS * FIELDS];
            long[] finishNs = new long[consumers];
            long[] counted = new long[consumers];
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                ZeroSidedBuffer[] views = Arrays.stream(producerBuffers[p])
                        .map(SwitchRig.Buffer::view)
                        .toArray(ZeroSidedBuffer[]::new);
                int producer = p;
                threads.add(Thread.ofPlatform()
                        .name("q1-producer-" + p)
                        .start(() -> produce(rows, producer, views, startNs)));
            }
            for (int c = 0; c < consumers; c++) {
                ZeroSidedBuffer view = consumerBuffers[c].view();
                int consumer = c;
                double rate = baseRate * SPEEDS[c];
                threads.add(Thread.ofPlatform().name("q1-consumer-" + c).start(() -> {
                    counted[consumer] = consume(view, rate, startNs, aggregates[consumer], rig);
                    finishNs[consumer] = System.nanoTime();
                }));
            }
            for (Thread thread : threads) {
                thread.join(120_000);
                if (thread.isAlive()) {
                    throw new IllegalStateException("Q1 " + (balanced ? "load-balanced" : "static")
                            + " run did not finish in 120 s: " + thread.getName() + "\n"
                            + rig.control().unsynchronizedDescribe());
                }
            }
            rig.check();
            long[] merged = new long[GROUPS * FIELDS];
            for (long[] aggregate : aggregates) {
                for (int i = 0; i < merged.length; i++) {
                    merged[i] += aggregate[i];
                }
            }
            if (!Arrays.equals(merged, rows.expected)) {
                throw new IllegalStateException("Q1 answer differs from the reference: " + Arrays.toString(merged)
                        + " != " + Arrays.toString(rows.expected));
            }
            double[] result = new double[1 + 2 * consumers];
            for (int c = 0; c < consumers; c++) {
                result[1 + c] = (finishNs[c] - startNs) / 1e9;
                result[1 + consumers + c] = counted[c];
                result[0] = Math.max(result[0], result[1 + c]);
            }
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void produce(Rows rows, int producer, ZeroSidedBuffer[] buffers, long startNs) {
        awaitStart(startNs);
        int sent = 0;
        for (int row = producer; row < rows.count; row += PRODUCERS) {
            ZeroSidedBuffer buffer = buffers[sent++ % buffers.length];
            long slot;
            while ((slot = buffer.claimSlot()) == ZeroSidedBuffer.NONE) {
                LockSupport.parkNanos(50_000);
            }
            MemorySegment.copy(rows.data, (long) row * ITEM_BYTES, buffer.segment(), slot, ITEM_BYTES);
            buffer.push();
        }
        for (ZeroSidedBuffer buffer : buffers) {
            buffer.finish();
        }
    }

    /** Aggregates Q1 from {@code buffer} at no more than {@code rate} rows/s; returns the rows taken. */
    private static long consume(ZeroSidedBuffer buffer, double rate, long startNs, long[] aggregate, SwitchRig rig) {
        awaitStart(startNs);
        long taken = 0;
        long deadline = startNs + 120_000_000_000L;
        while (true) {
            long nowNs = System.nanoTime();
            long dueNs = startNs + (long) ((taken + 1) / rate * 1e9);
            if (dueNs - nowNs > 0) {
                LockSupport.parkNanos(Math.min(dueNs - nowNs, 1_000_000));
                continue;
            }
            long slot = buffer.nextSlot();
            if (slot == ZeroSidedBuffer.END_OF_STREAM) {
                return taken;
            }
            if (slot == ZeroSidedBuffer.NONE) {
                if (nowNs - deadline > 0 || rig.failure() != null) {
                    return taken;
                }
                LockSupport.parkNanos(50_000);
                continue;
            }
            accumulate(buffer.segment(), slot, aggregate);
            buffer.pop();
            taken++;
        }
    }

    private static void accumulate(MemorySegment segment, long slot, long[] aggregate) {
        int shipDate = segment.get(ValueLayout.JAVA_INT_UNALIGNED, slot + 32);
        if (shipDate > CUTOFF_DAY) {
            return;
        }
        long quantity = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot);
        long price = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot + 8);
        long discount = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot + 16);
        long tax = segment.get(ValueLayout.JAVA_LONG_UNALIGNED, slot + 24);
        int group = segment.get(ValueLayout.JAVA_BYTE, slot + 36) * 2 + segment.get(ValueLayout.JAVA_BYTE, slot + 37);
        int at = group * FIELDS;
        aggregate[at]++;
        aggregate[at + 1] += quantity;
        aggregate[at + 2] += price;
        aggregate[at + 3] += price * (100 - discount);
        aggregate[at + 4] += price * (100 - discount) * (100 + tax);
    }

    private static void awaitStart(long startNs) {
        long wait;
        while ((wait = startNs - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
    }

    /** The rows in item layout, and the Q1 aggregates they must give. */
    private record Rows(MemorySegment data, int count, long[] expected) {

        static Rows generate(double scaleFactor) {
            long[] words = new long[1 << 16];
            long[] expected = new long[GROUPS * FIELDS];
            int count = 0;
            for (LineItem item : new LineItemGenerator(scaleFactor, 1, 1)) {
                if ((count + 1L) * ITEM_BYTES / Long.BYTES > words.length) {
                    words = Arrays.copyOf(words, 2 * words.length);
                }
                MemorySegment data = MemorySegment.ofArray(words);
                long at = (long) count++ * ITEM_BYTES;
                data.set(ValueLayout.JAVA_LONG_UNALIGNED, at, item.quantity());
                data.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 8, item.extendedPriceInCents());
                data.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 16, item.discountPercent());
                data.set(ValueLayout.JAVA_LONG_UNALIGNED, at + 24, item.taxPercent());
                data.set(ValueLayout.JAVA_INT_UNALIGNED, at + 32, item.shipDate());
                data.set(ValueLayout.JAVA_BYTE, at + 36, (byte)
                        "ANR".indexOf(item.returnFlag().charAt(0)));
                data.set(ValueLayout.JAVA_BYTE, at + 37, (byte)
                        "FO".indexOf(item.status().charAt(0)));
                accumulate(data, at, expected);
            }
            return new Rows(MemorySegment.ofArray(words), count, expected);
        }
    }
}
