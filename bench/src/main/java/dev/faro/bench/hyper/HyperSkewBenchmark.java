package dev.faro.bench.hyper;

import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.hyper.PartitionSkew;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * V2 of the VLDB16 digest: Zipf-distributed keys hash-partitioned into a classic exchange's n·t parallel units against
 * hybrid parallelism's n servers ({@link PartitionSkew}), for each node count and key domain; the most loaded unit's
 * expected input over its fair share. The paper (§3.1, n = 6, t = 40, z = 0.84): more than 2× for the 240 classic
 * units, +2.8 % for the 6 servers; the digest's own calculation gives 2.44× / +3.0 % over ~10⁹ keys and 5.7× / +9.7 %
 * over 10⁶, so the key domain is printed beside each row. Coordination code.
 */
public final class HyperSkewBenchmark {

    /** What a run printed and wrote. */
    public record Report(String table, Path csvFile, Path plotFile) {}

    private final List<Integer> nodeCounts;
    private final int threads;
    private final double zipf;
    private final List<Long> domains;
    private final Path outputDirectory;
    private final Consumer<String> progress;

    public HyperSkewBenchmark(
            List<Integer> nodeCounts,
            int threads,
            double zipf,
            List<Long> domains,
            Path outputDirectory,
            Consumer<String> progress) {
        if (nodeCounts.isEmpty() || domains.isEmpty()) {
            throw new IllegalArgumentException("give at least one node count and one key domain");
        }
        for (int nodes : nodeCounts) {
            if (nodes < 1) {
                throw new IllegalArgumentException("node counts must be positive: " + nodes);
            }
        }
        for (long domain : domains) {
            if (domain < 1) {
                throw new IllegalArgumentException("key domains must be positive: " + domain);
            }
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        if (!(zipf >= 0) || Double.isInfinite(zipf)) {
            throw new IllegalArgumentException("the Zipf exponent must be finite and >= 0: " + zipf);
        }
        this.nodeCounts = List.copyOf(nodeCounts);
        this.threads = threads;
        this.zipf = zipf;
        this.domains = List.copyOf(domains);
        this.outputDirectory = outputDirectory;
        this.progress = progress;
    }

    public Report run() {
        int[] partitionCounts = new int[2 * nodeCounts.size()];
        for (int i = 0; i < nodeCounts.size(); i++) {
            partitionCounts[2 * i] = Math.multiplyExact(nodeCounts.get(i), threads);
            partitionCounts[2 * i + 1] = nodeCounts.get(i);
        }
        List<List<String>> rows = new ArrayList<>();
        List<List<String>> tableRows = new ArrayList<>();
        List<Double> x = new ArrayList<>();
        List<Double> classicLast = new ArrayList<>();
        List<Double> hybridLast = new ArrayList<>();
        for (long domain : domains) {
            progress.accept("hashing Zipf(" + zipf + ") keys over a domain of " + count(domain));
            double[] ratios = PartitionSkew.maxOverFair(zipf, domain, partitionCounts);
            for (int i = 0; i < nodeCounts.size(); i++) {
                int nodes = nodeCounts.get(i);
                double classic = ratios[2 * i];
                double hybrid = ratios[2 * i + 1];
                String paper = nodes == 6 && threads == 40 && zipf == 0.84 ? "> 2x; +2.8 %" : "";
                rows.add(List.of(
                        Integer.toString(nodes),
                        Integer.toString(threads),
                        Double.toString(zipf),
                        Long.toString(domain),
                        Integer.toString(partitionCounts[2 * i]),
                        format("%.4f", classic),
                        Integer.toString(nodes),
                        format("%.4f", hybrid),
                        paper));
                tableRows.add(List.of(
                        Integer.toString(nodes),
                        Integer.toString(threads),
                        count(domain),
                        Integer.toString(partitionCounts[2 * i]),
                        format("%.2fx", classic),
                        Integer.toString(nodes),
                        format("%+.1f %%", (hybrid - 1) * 100),
                        paper));
                if (domain == domains.getLast()) {
                    x.add((double) nodes);
                    classicLast.add(classic);
                    hybridLast.add(hybrid);
                }
            }
        }
        List<String> header = List.of(
                "nodes",
                "threads",
                "zipf",
                "key domain",
                "classic units",
                "classic max/fair",
                "hybrid units",
                "hybrid max/fair",
                "paper (classic; hybrid)");
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.number("nodes"),
                ResultTable.Column.number("threads"),
                ResultTable.Column.number("key domain"),
                ResultTable.Column.number("classic units"),
                ResultTable.Column.number("classic max/fair"),
                ResultTable.Column.number("hybrid units"),
                ResultTable.Column.number("hybrid over fair"),
                ResultTable.Column.text("paper (classic; hybrid)"));
        String table = "VLDB16 V2: Zipf(" + zipf + ") keys hash-partitioned into classic units (n*t) vs hybrid"
                + " units (n servers): the most loaded unit's expected input over its fair share\n"
                + new ResultTable(columns, tableRows).format();
        Path csv = outputDirectory.resolve("hyper-v2.csv");
        CsvWriter.write(csv, header, rows);
        Path plot = outputDirectory.resolve("hyper-v2.png");
        PlotWriter.writeLines(
                plot,
                "VLDB16 V2: skew, Zipf " + zipf + " over " + count(domains.getLast()) + " keys, " + threads
                        + " threads per node",
                "nodes",
                false,
                "most loaded unit / fair share",
                List.of(
                        new PlotWriter.Line("classic (n*t units)", x, classicLast, true),
                        new PlotWriter.Line("hybrid (n servers)", x, hybridLast, false)));
        return new Report(table, csv, plot);
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
