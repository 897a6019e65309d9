package dev.faro.bench.experiment;

import dev.faro.bench.baseline.MpiBaseline;
import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.MachineInfo;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import dev.faro.bench.shuffle.ShuffleCase;
import dev.faro.bench.shuffle.ShufflePattern;
import dev.faro.cluster.coordinator.ClusterStart;
import dev.faro.fabric.shm.ShmFabricProvider;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The skeleton every TODS19 experiment shares: a driver subclass says which {@link Trial}s to run, which extra
 * columns its table has, what it plots and what its results show; this class runs the trials ({@link TrialRunner}:
 * one cluster, interleaved rounds, calibration, medians, exactly-once checks) and writes {@code <name>.csv},
 * {@code <name>.json} (configuration, machine, JDK) and {@code <name>[-suffix].png} under the output directory.
 *
 * <p>Coordination code; {@link #run} runs on the caller's thread.
 */
public abstract class ExperimentDriver {

    static final List<String> CSV_HEADER = List.of(
            "experiment",
            "group",
            "series",
            "contender",
            "x",
            "pattern",
            "nodes",
            "threads",
            "buffer_bytes",
            "buffers_per_peer",
            "scans",
            "runs",
            "gbps_per_node",
            "gbps_min",
            "gbps_max",
            "response_seconds",
            "setup_ms",
            "bytes_per_node",
            "credit_writes_per_mib",
            "send_blocked",
            "receive_blocked");

    /** The short name, also the command and the file name: {@code e4}. */
    public abstract String name();

    /** One line: what the experiment measures (TODS19 section and figure). */
    public abstract String title();

    /** The paper's finding this experiment checks, for the metadata and the report. */
    public abstract String paperFinding();

    /** The settings the command starts from, full or {@code --quick}. */
    public abstract ExperimentSettings defaults(boolean quick);

    /**
     * Refuses, with one line, an experiment none of whose trials could run on the workers {@code joined} describes
     * (E8 measures MESQ/SR only, which needs UD queue pairs, and {@code ucx} has none).
     *
     * @throws IllegalArgumentException saying why and what to use instead
     */
    public final void checkRunnable(ExperimentSettings settings, ClusterStart joined) {
        if (joined != null
                && trials(settings).stream().allMatch(trial -> TrialRunner.skipReason(trial, joined) != null)) {
            String reason = TrialRunner.skipReason(trials(settings).get(0), joined);
            throw new IllegalArgumentException(name() + " has nothing to run on these workers ("
                    + reason.substring("skipped: ".length()) + "): use --provider net");
        }
    }

    /** The trials, in the order of the table. */
    protected abstract List<Trial> trials(ExperimentSettings settings);

    /** The plots. */
    protected abstract List<Plot> plots(ExperimentSettings settings);

    /** Columns this experiment adds to the table and the CSV (e.g. ratios to the baselines). */
    protected List<String> extraColumns() {
        return List.of();
    }

    /** The extra cells of {@code result}, one per {@link #extraColumns()}; {@code all} are every trial's results. */
    protected List<String> extraCells(TrialResult result, List<TrialResult> all) {
        return List.of();
    }

    /**
     * Whether the table shows the resource counters (credit writes per MiB, the shares of time the SHUFFLE and
     * RECEIVE threads were blocked); the CSV always has them.
     */
    protected boolean showCounters() {
        return false;
    }

    /** Lines that summarize what the results show next to the paper's finding. */
    protected List<String> findings(List<TrialResult> results) {
        return List.of();
    }

    /** Runs the experiment on a local cluster (worker JVMs on this host over {@code shm}) and writes its files. */
    public final ExperimentReport run(ExperimentSettings settings, Consumer<String> progress)
            throws InterruptedException {
        return run(settings, null, progress);
    }

    /**
     * Runs the experiment on the workers {@code joined} describes (started elsewhere, {@code faro worker --join}) and
     * writes its files. The MPI trials are skipped, and on {@code ucx} the trials of UD designs, each with a note.
     *
     * @param joined workers that join, or null for a local cluster
     */
    public final ExperimentReport run(ExperimentSettings settings, ClusterStart joined, Consumer<String> progress)
            throws InterruptedException {
        Objects.requireNonNull(settings, "settings is null");
        String provider =
                joined == null ? ShmFabricProvider.NAME : joined.config().provider();
        Instant startedAt = Instant.now();
        long startNanos = System.nanoTime();
        MachineInfo machine = MachineInfo.collect();
        List<String> notes = new ArrayList<>();
        List<Trial> trials = trials(settings);
        progress.accept(name() + ": " + title() + " — " + trials.size() + " trials x "
                + (settings.warmupRuns() + settings.runs()) + " rounds");
        List<TrialResult> results = new TrialRunner(settings, joined, progress, notes).run(trials);
        notes.addAll(mpiConfigurations(results));
        List<String> findings = findings(results);
        Path directory = settings.outputDirectory();
        Path csv = directory.resolve(name() + ".csv");
        Path json = directory.resolve(name() + ".json");
        List<String> header = new ArrayList<>(CSV_HEADER);
        header.addAll(extraColumns());
        header.add("failure");
        CsvWriter.write(
                csv, header, results.stream().map(r -> csvRow(r, results)).toList());
        RunMetadata metadata = new RunMetadata(
                name(),
                startedAt,
                Duration.ofNanos(System.nanoTime() - startNanos),
                machine,
                parameters(settings, provider, notes, findings));
        metadata.write(json);
        List<Path> plots = new ArrayList<>();
        for (Plot plot : plots(settings)) {
            Path file = directory.resolve(name() + (plot.suffix().isEmpty() ? "" : "-" + plot.suffix()) + ".png");
            PlotWriter.writeLines(
                    file, plot.title(), plot.xAxisTitle(), plot.log2X(), plot.yAxisTitle(), lines(plot, results));
            plots.add(file);
        }
        String table = table(results, notes, findings)
                + String.format(
                        Locale.ROOT,
                        "%d cores (%s), load average %.1f at start; %.0f s%n",
                        machine.cores(),
                        machine.cpuModel(),
                        machine.loadAverage(),
                        metadata.elapsed().toMillis() / 1000.0);
        return new ExperimentReport(name(), results, table, metadata, csv, json, plots);
    }

    /** One note per MPI configuration the MPI rows ran with ({@link MpiBaseline#configuration}), naming their groups. */
    static List<String> mpiConfigurations(List<TrialResult> results) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (TrialResult result : results) {
            if (result.trial().mpi() && result.succeeded()) {
                groups.computeIfAbsent(MpiBaseline.configuration(result.trial().shuffleCase()), c -> new ArrayList<>())
                        .add(result.trial().group());
            }
        }
        List<String> notes = new ArrayList<>();
        groups.forEach((configuration, in) -> notes.add("MPI rows " + String.join(", ", in) + ": " + configuration));
        return notes;
    }

    private List<String> csvRow(TrialResult result, List<TrialResult> all) {
        ShuffleCase shuffleCase = result.trial().shuffleCase();
        boolean ok = result.succeeded();
        List<String> row = new ArrayList<>(List.of(
                name(),
                result.trial().group(),
                result.trial().series(),
                result.trial().contender(),
                format("%s", result.trial().x()),
                shuffleCase.pattern(),
                Integer.toString(shuffleCase.nodes()),
                Integer.toString(shuffleCase.threads()),
                Integer.toString(result.trial().mpi() ? 65536 : shuffleCase.bufferBytes()),
                Integer.toString(shuffleCase.buffersPerPeer()),
                Integer.toString(shuffleCase.scans()),
                Integer.toString(result.runs()),
                ok ? format("%.4f", result.gigabytesPerSecond()) : "",
                ok ? format("%.4f", result.minGigabytesPerSecond()) : "",
                ok ? format("%.4f", result.maxGigabytesPerSecond()) : "",
                ok ? format("%.4f", result.responseSeconds()) : "",
                ok && Double.isFinite(result.setupMillis()) ? format("%.2f", result.setupMillis()) : "",
                ok ? format("%.0f", result.bytesPerNode()) : "",
                ok && Double.isFinite(result.creditWritesPerMebibyte())
                        ? format("%.2f", result.creditWritesPerMebibyte())
                        : "",
                ok && Double.isFinite(result.sendBlockedFraction()) ? format("%.3f", result.sendBlockedFraction()) : "",
                ok && Double.isFinite(result.receiveBlockedFraction())
                        ? format("%.3f", result.receiveBlockedFraction())
                        : ""));
        row.addAll(extraCells(result, all));
        row.add(result.failure());
        return row;
    }

    private String table(List<TrialResult> results, List<String> notes, List<String> findings) {
        List<Column> columns = new ArrayList<>(List.of(
                Column.text("group"),
                Column.text("series"),
                Column.number("x"),
                Column.number("GB/s per node"),
                Column.number("runs GB/s"),
                Column.number("setup ms"),
                Column.number("scans")));
        extraColumns().forEach(c -> columns.add(Column.number(c)));
        List<String> counterColumns =
                showCounters() ? List.of("credit wr/MiB", "send blocked", "recv blocked") : List.of();
        counterColumns.forEach(c -> columns.add(Column.number(c)));
        List<List<String>> rows = new ArrayList<>();
        for (TrialResult result : results) {
            List<String> row = new ArrayList<>(List.of(
                    result.trial().group(),
                    result.trial().series(),
                    result.trial().xLabel()));
            if (result.succeeded()) {
                row.addAll(List.of(
                        format("%.3f", result.gigabytesPerSecond()),
                        format("%.3f-%.3f", result.minGigabytesPerSecond(), result.maxGigabytesPerSecond()),
                        Double.isFinite(result.setupMillis()) ? format("%.1f", result.setupMillis()) : "",
                        Integer.toString(result.trial().shuffleCase().scans())));
                row.addAll(extraCells(result, results));
                if (showCounters()) {
                    row.addAll(List.of(
                            format("%.1f", result.creditWritesPerMebibyte()),
                            format("%.0f%%", 100 * result.sendBlockedFraction()),
                            format("%.0f%%", 100 * result.receiveBlockedFraction())));
                }
            } else {
                row.addAll(List.of(result.skipped() ? "skipped" : "failed", "", "", ""));
                extraColumns().forEach(c -> row.add(""));
                counterColumns.forEach(c -> row.add(""));
            }
            rows.add(row);
        }
        StringBuilder text = new StringBuilder(name() + ": " + title() + "\n");
        text.append(new ResultTable(columns, rows).format());
        for (TrialResult result : results) {
            if (!result.succeeded() && !result.skipped()) {
                text.append(String.format(
                        Locale.ROOT,
                        "%s %s %s failed: %s%n",
                        result.trial().group(),
                        result.trial().series(),
                        result.trial().xLabel(),
                        result.failure()));
            }
        }
        notes.forEach(note -> text.append("note: ").append(note).append('\n'));
        text.append("paper: ").append(paperFinding()).append('\n');
        findings.forEach(finding -> text.append("here: ").append(finding).append('\n'));
        return text.toString();
    }

    /** One line per series among the plot's results, points in x order. */
    private static List<PlotWriter.Line> lines(Plot plot, List<TrialResult> results) {
        Map<String, List<TrialResult>> bySeries = new LinkedHashMap<>();
        for (TrialResult result : results) {
            if (plot.include().test(result)) {
                bySeries.computeIfAbsent(result.trial().series(), s -> new ArrayList<>())
                        .add(result);
            }
        }
        List<PlotWriter.Line> lines = new ArrayList<>();
        bySeries.forEach((series, points) -> {
            List<TrialResult> sorted = points.stream()
                    .sorted(java.util.Comparator.comparingDouble(r -> r.trial().x()))
                    .toList();
            lines.add(new PlotWriter.Line(
                    series,
                    sorted.stream().map(r -> r.trial().x()).toList(),
                    sorted.stream()
                            .map(r -> r.succeeded() ? plot.metric().applyAsDouble(r) : Double.NaN)
                            .toList(),
                    series.equals("MPI") || series.equals("TCP") || series.equals("local")));
        });
        return lines;
    }

    private Map<String, Object> parameters(
            ExperimentSettings settings, String provider, List<String> notes, List<String> findings) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("title", title());
        parameters.put("provider", provider);
        parameters.put("workers", provider.equals(ShmFabricProvider.NAME) ? "local JVMs" : "joined (--listen)");
        parameters.put("nodeCounts", settings.nodeCounts());
        parameters.put("threadsPerNode", settings.threads());
        parameters.put("tupleBytes", 16);
        parameters.put("tuplesPerThread", settings.tuplesPerThread());
        parameters.put("scansBeforeCalibration", settings.scans());
        parameters.put("minimumSecondsPerMeasurement", settings.minimumSeconds());
        parameters.put("runs", settings.runs());
        parameters.put("warmupRuns", settings.warmupRuns());
        parameters.put("quick", settings.quick());
        parameters.put(
                "metric",
                "receive throughput per node = bytes received per node / response time (the"
                        + " longest node's time from the end of the open to its end of stream); median of the timed runs,"
                        + " interleaved across trials");
        parameters.put(
                "baselines",
                "TCP: plain loopback sockets, 128 KB messages, blocking send, select/recv loop;"
                        + " MPI: Open MPI at equal cores: as many single-threaded ranks per node as the designs' threads"
                        + " (-np nodes x threads; lane t of every node shuffles thread t's table over its own"
                        + " communicator) when that many ranks fit the cores, else one rank per node shuffling all its"
                        + " threads' tables (the notes name the configuration of each MPI row), 64 KB"
                        + " MPI_Isend/MPI_Irecv (repartition), MPI_Ibcast (broadcast); local (E7): the receive side's work on"
                        + " the tuples each node would receive, without a shuffle, 2 x threads threads per node, all nodes at"
                        + " once, in the harness's JVM");
        parameters.put(
                "counters",
                "credit_writes_per_mib: credit write-backs posted by the receive endpoints per MiB"
                        + " received; send_blocked / receive_blocked: share of the SHUFFLE / RECEIVE threads' time (threads x"
                        + " nodes x response time) spent blocked waiting for a buffer or credit / for data (0 for TCP and MPI:"
                        + " not counted)");
        parameters.put("paperFinding", paperFinding());
        parameters.put("findings", findings);
        parameters.put("notes", notes);
        return parameters;
    }

    /** A case with the paper's buffers for {@code design} and the settings' threads, rows and scans. */
    protected static ShuffleCase shuffleCase(
            EndpointDesign design, ShufflePattern pattern, int nodes, ExperimentSettings settings) {
        return ShuffleCase.of(design, pattern, nodes, settings.threads(), settings.tuplesPerThread())
                .withScans(settings.scans())
                .withDefaultBuffers();
    }

    /** The first successful result among {@code all} that {@code reference} accepts. */
    protected static Optional<TrialResult> find(List<TrialResult> all, Predicate<TrialResult> reference) {
        return all.stream().filter(r -> r.succeeded() && reference.test(r)).findFirst();
    }

    /** {@code result}'s throughput over {@code reference}'s, formatted; empty when either has no number. */
    protected static String ratio(TrialResult result, Optional<TrialResult> reference) {
        if (!result.succeeded() || reference.isEmpty()) {
            return "";
        }
        return format("%.2f", result.gigabytesPerSecond() / reference.get().gigabytesPerSecond());
    }

    /** Among successful results {@code include} accepts: the largest throughput over the smallest, or NaN. */
    protected static double spread(List<TrialResult> all, Predicate<TrialResult> include) {
        double[] values = all.stream()
                .filter(r -> r.succeeded() && include.test(r))
                .mapToDouble(TrialResult::gigabytesPerSecond)
                .toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        double max = java.util.Arrays.stream(values).max().orElseThrow();
        return max / java.util.Arrays.stream(values).min().orElseThrow();
    }

    static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
