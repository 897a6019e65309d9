package dev.faro.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The sidecar of an experiment's CSV: what ran, when, where and with which parameters, written as JSON.
 *
 * @param experiment the experiment's name, e.g. {@code fabric}
 * @param startedAt when the run began
 * @param elapsed how long it took
 * @param machine where it ran
 * @param parameters the experiment's parameters, in a stable order
 */
public record RunMetadata(
        String experiment, Instant startedAt, Duration elapsed, MachineInfo machine, Map<String, Object> parameters) {

    public RunMetadata {
        Objects.requireNonNull(experiment, "experiment is null");
        Objects.requireNonNull(startedAt, "startedAt is null");
        Objects.requireNonNull(elapsed, "elapsed is null");
        Objects.requireNonNull(machine, "machine is null");
        parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** The metadata as a JSON object, pretty-printed. */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("experiment", experiment);
        root.put("startedAt", startedAt.toString());
        root.put("elapsedSeconds", elapsed.toMillis() / 1000.0);
        root.put("machine", machine.toMap());
        root.put("parameters", parameters);
        StringBuilder json = new StringBuilder();
        Json.append(json, root, "");
        return json.append('\n').toString();
    }

    /**
     * Writes {@link #toJson()} to {@code file}, creating its directory.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public void write(Path file) {
        try {
            Path directory = file.toAbsolutePath().getParent();
            if (directory != null) {
                Files.createDirectories(directory);
            }
            Files.writeString(file, toJson(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
