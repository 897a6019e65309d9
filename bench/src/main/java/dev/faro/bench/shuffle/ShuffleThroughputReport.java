package dev.faro.bench.shuffle;

import dev.faro.bench.report.RunMetadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one {@code faro bench shuffle throughput} run produced: its results, its metadata, notes for the reader and
 * the files it wrote.
 *
 * @param results one per node count and design, node-count-major, designs in enum order
 * @param metadata the machine and the parameters
 * @param notes remarks such as oversubscribed cores or shared memory left behind
 * @param csvFile the results as CSV
 * @param metadataFile the metadata as JSON
 * @param plotFile the bar plot as PNG
 */
public record ShuffleThroughputReport(
        List<ThroughputResult> results,
        RunMetadata metadata,
        List<String> notes,
        Path csvFile,
        Path metadataFile,
        Path plotFile) {

    public ShuffleThroughputReport {
        results = List.copyOf(results);
        notes = List.copyOf(notes);
        Objects.requireNonNull(metadata, "metadata is null");
        Objects.requireNonNull(csvFile, "csvFile is null");
        Objects.requireNonNull(metadataFile, "metadataFile is null");
        Objects.requireNonNull(plotFile, "plotFile is null");
    }

    /** The results as a text table for the terminal, with failures, notes and a line about the machine below. */
    public String table() {
        return ThroughputReportWriter.table(results, notes) + ThroughputReportWriter.machineLine(metadata);
    }
}
