package dev.faro.bench.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes RFC 4180 CSV: a header line, then one line per row; cells with commas, quotes or newlines are quoted. */
public final class CsvWriter {

    private CsvWriter() {}

    /**
     * Writes {@code header} and {@code rows} to {@code file}, creating its directory and replacing an old file.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void write(Path file, List<String> header, List<List<String>> rows) {
        try {
            Path directory = file.toAbsolutePath().getParent();
            if (directory != null) {
                Files.createDirectories(directory);
            }
            try (BufferedWriter writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                writeLine(writer, header);
                for (List<String> row : rows) {
                    if (row.size() != header.size()) {
                        throw new IllegalArgumentException(
                                "row has " + row.size() + " cells, the header " + header.size() + ": " + row);
                    }
                    writeLine(writer, row);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeLine(BufferedWriter writer, List<String> cells) throws IOException {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                writer.write(',');
            }
            writer.write(quote(cells.get(i)));
        }
        writer.write("\r\n");
    }

    /** The cell as CSV: unchanged, or in double quotes with inner quotes doubled when it needs quoting. */
    static String quote(String cell) {
        if (cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0 && cell.indexOf('\r') < 0) {
            return cell;
        }
        return '"' + cell.replace("\"", "\"\"") + '"';
    }
}
