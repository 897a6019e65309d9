package dev.faro.bench.fabric;

import dev.faro.bench.report.RunMetadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one {@code faro bench fabric} run produced: its results, its metadata and the files it wrote.
 *
 * @param results one per point, operation-major, sizes ascending
 * @param metadata the machine and the parameters
 * @param csvFile the results as CSV
 * @param metadataFile the metadata as JSON
 * @param plotFile bandwidth over message size as PNG
 * @param socketBaseline the plain blocking-socket stream between the same workers, at the sizes it was measured at
 *     (64 KiB and 1 MiB when requested), or empty
 */
public record FabricBenchmarkReport(
        List<BandwidthResult> results,
        RunMetadata metadata,
        Path csvFile,
        Path metadataFile,
        Path plotFile,
        List<SocketStreamResult> socketBaseline) {

    public FabricBenchmarkReport {
        results = List.copyOf(results);
        socketBaseline = List.copyOf(socketBaseline);
        Objects.requireNonNull(metadata, "metadata is null");
        Objects.requireNonNull(csvFile, "csvFile is null");
        Objects.requireNonNull(metadataFile, "metadataFile is null");
        Objects.requireNonNull(plotFile, "plotFile is null");
    }

    /** The results as a text table for the terminal, with a line of counters and a line about the machine below. */
    public String table() {
        return FabricReport.table(results, socketBaseline) + FabricReport.machineLine(metadata);
    }
}
