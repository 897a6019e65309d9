package dev.faro.bench.fabric;

import dev.faro.bench.ByteSizes;
import dev.faro.bench.report.CsvWriter;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import dev.faro.bench.report.ResultTable;
import dev.faro.bench.report.ResultTable.Column;
import dev.faro.bench.report.RunMetadata;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns fabric benchmark results into the report files and the terminal table: {@code fabric-<provider>.csv},
 * {@code fabric-<provider>.json} (metadata) and {@code fabric-<provider>.png} under the output directory.
 * Coordination code.
 */
final class FabricReport {

    static final List<String> CSV_HEADER = List.of(
            "provider",
            "operation",
            "size_bytes",
            "gbps",
            "mmsgps",
            "memcpy_gbps",
            "ratio_to_memcpy",
            "runs",
            "gbps_min",
            "gbps_max",
            "initiator_polls",
            "credit_waits",
            "credit_writes",
            "receives_completed",
            "ud_drops",
            "rnr_retries",
            "socket_gbps",
            "ratio_to_socket");

    private FabricReport() {}

    /** Writes the three files and returns the report. */
    static FabricBenchmarkReport write(
            FabricBenchmarkConfig config,
            List<BandwidthResult> results,
            List<SocketStreamResult> socketBaseline,
            RunMetadata metadata) {
        Path directory = config.outputDirectory();
        String base = "fabric-" + config.provider();
        Path csv = directory.resolve(base + ".csv");
        Path json = directory.resolve(base + ".json");
        Path png = directory.resolve(base + ".png");
        CsvWriter.write(csv, CSV_HEADER, csvRows(config.provider(), results, socketBaseline));
        metadata.write(json);
        List<PlotWriter.Series> series = series(results);
        if (!socketBaseline.isEmpty()) {
            TreeMap<Integer, List<Double>> socket = new TreeMap<>();
            for (SocketStreamResult result : socketBaseline) {
                socket.computeIfAbsent(result.sizeBytes(), size -> new ArrayList<>())
                        .add(result.gigabytesPerSecond());
            }
            series.add(new PlotWriter.Series(
                    "socket stream (blocking)",
                    socket.keySet().stream().map(Integer::longValue).toList(),
                    socket.values().stream()
                            .map(values -> Medians.of(values.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .toArray()))
                            .toList(),
                    true));
        }
        PlotWriter.writeSizeSweep(
                png,
                "Fabric bandwidth, " + config.provider() + " provider, two processes",
                "GB/s (1e9 bytes/s)",
                series);
        return new FabricBenchmarkReport(results, metadata, csv, json, png, socketBaseline);
    }

    /**
     * The terminal table: operation, size, GB/s, M msg/s, memcpy GB/s, ratio; with a socket baseline also the socket
     * stream's GB/s at the same size and the ratio to it; then a line of flow counters.
     */
    static String table(List<BandwidthResult> results, List<SocketStreamResult> socketBaseline) {
        List<List<String>> rows = new ArrayList<>();
        long udDrops = 0;
        long retries = 0;
        long creditWaits = 0;
        for (BandwidthResult result : results) {
            List<String> row = new ArrayList<>(List.of(
                    result.operation().label(),
                    ByteSizes.format(result.sizeBytes()),
                    format("%.2f", result.gigabytesPerSecond()),
                    format("%.3f", result.megaMessagesPerSecond()),
                    format("%.2f", result.memcpyGigabytesPerSecond()),
                    format("%.2f", result.ratioToMemcpy())));
            if (!socketBaseline.isEmpty()) {
                SocketStreamResult socket = socketBeside(socketBaseline, result);
                row.add(socket == null ? "-" : format("%.2f", socket.gigabytesPerSecond()));
                row.add(
                        socket == null
                                ? "-"
                                : format("%.2f", result.gigabytesPerSecond() / socket.gigabytesPerSecond()));
            }
            rows.add(row);
            udDrops += result.counters().udDrops();
            retries += result.counters().receiverNotReadyRetries();
            creditWaits += result.counters().creditWaits();
        }
        List<Column> columns = new ArrayList<>(List.of(
                Column.text("op"),
                Column.number("size"),
                Column.number("GB/s"),
                Column.number("M msg/s"),
                Column.number("memcpy GB/s"),
                Column.number("ratio")));
        if (!socketBaseline.isEmpty()) {
            columns.add(Column.number("socket GB/s"));
            columns.add(Column.number("vs socket"));
        }
        ResultTable table = new ResultTable(columns, rows);
        return table.format()
                + String.format(
                        Locale.ROOT,
                        "UD SENDs dropped: %d; RC SEND receiver-not-ready retries: %d; initiator credit waits: %d%n",
                        udDrops,
                        retries,
                        creditWaits);
    }

    /** Where and how long it ran: cores, load at the start (shared machines are noisy), elapsed time. */
    static String machineLine(RunMetadata metadata) {
        return String.format(
                Locale.ROOT,
                "%d cores (%s), load average %.1f at start; %.0f s%n",
                metadata.machine().cores(),
                metadata.machine().cpuModel(),
                metadata.machine().loadAverage(),
                metadata.elapsed().toMillis() / 1000.0);
    }

    /** The socket stream measured beside {@code result}'s point, or null. */
    static SocketStreamResult socketBeside(List<SocketStreamResult> socketBaseline, BandwidthResult result) {
        for (SocketStreamResult socket : socketBaseline) {
            if (socket.sizeBytes() == result.sizeBytes() && socket.beside() == result.operation()) {
                return socket;
            }
        }
        return null;
    }

    static List<List<String>> csvRows(
            String provider, List<BandwidthResult> results, List<SocketStreamResult> socketBaseline) {
        List<List<String>> rows = new ArrayList<>();
        for (BandwidthResult result : results) {
            BandwidthResult.Counters counters = result.counters();
            SocketStreamResult socket = socketBeside(socketBaseline, result);
            rows.add(List.of(
                    provider,
                    result.operation().cliName(),
                    Integer.toString(result.sizeBytes()),
                    format("%.4f", result.gigabytesPerSecond()),
                    format("%.4f", result.megaMessagesPerSecond()),
                    format("%.4f", result.memcpyGigabytesPerSecond()),
                    format("%.4f", result.ratioToMemcpy()),
                    Integer.toString(result.runs()),
                    format("%.4f", result.minGigabytesPerSecond()),
                    format("%.4f", result.maxGigabytesPerSecond()),
                    Long.toString(counters.initiatorPolls()),
                    Long.toString(counters.creditWaits()),
                    Long.toString(counters.creditWrites()),
                    Long.toString(counters.receivesCompleted()),
                    Long.toString(counters.udDrops()),
                    Long.toString(counters.receiverNotReadyRetries()),
                    socket == null ? "" : format("%.4f", socket.gigabytesPerSecond()),
                    socket == null ? "" : format("%.4f", result.gigabytesPerSecond() / socket.gigabytesPerSecond())));
        }
        return rows;
    }

    /**
     * One series per operation, plus memcpy: at each size the median of the memcpy medians measured beside every
     * operation at that size.
     */
    static List<PlotWriter.Series> series(List<BandwidthResult> results) {
        Map<FabricOperation, TreeMap<Integer, Double>> byOperation = new TreeMap<>();
        TreeMap<Integer, List<Double>> memcpy = new TreeMap<>();
        for (BandwidthResult result : results) {
            byOperation
                    .computeIfAbsent(result.operation(), operation -> new TreeMap<>())
                    .put(result.sizeBytes(), result.gigabytesPerSecond());
            memcpy.computeIfAbsent(result.sizeBytes(), size -> new ArrayList<>())
                    .add(result.memcpyGigabytesPerSecond());
        }
        List<PlotWriter.Series> series = new ArrayList<>();
        byOperation.forEach((operation, points) -> series.add(new PlotWriter.Series(
                operation.label(),
                points.keySet().stream().map(Integer::longValue).toList(),
                List.copyOf(points.values()),
                false)));
        series.add(new PlotWriter.Series(
                "memcpy (1 thread)",
                memcpy.keySet().stream().map(Integer::longValue).toList(),
                memcpy.values().stream()
                        .map(values -> Medians.of(
                                values.stream().mapToDouble(Double::doubleValue).toArray()))
                        .toList(),
                true));
        return series;
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
