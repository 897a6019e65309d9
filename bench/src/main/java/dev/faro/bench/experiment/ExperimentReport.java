package dev.faro.bench.experiment;

import dev.faro.bench.report.RunMetadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one experiment run produced: its results, the text table, notes, metadata and the files it wrote.
 *
 * @param name the experiment's short name ({@code e4})
 * @param results one per trial
 * @param table the terminal table, with notes, findings and a line about the machine
 * @param metadata configuration, machine and JDK
 * @param csvFile the results as CSV
 * @param metadataFile the metadata as JSON
 * @param plotFiles the PNG plots
 */
public record ExperimentReport(
        String name,
        List<TrialResult> results,
        String table,
        RunMetadata metadata,
        Path csvFile,
        Path metadataFile,
        List<Path> plotFiles) {

    public ExperimentReport {
        Objects.requireNonNull(name, "name is null");
        results = List.copyOf(results);
        Objects.requireNonNull(table, "table is null");
        Objects.requireNonNull(metadata, "metadata is null");
        Objects.requireNonNull(csvFile, "csvFile is null");
        Objects.requireNonNull(metadataFile, "metadataFile is null");
        plotFiles = List.copyOf(plotFiles);
    }
}
