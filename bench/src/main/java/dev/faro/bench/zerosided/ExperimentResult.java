package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.bench.report.Medians;
import dev.faro.bench.report.PlotWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleBinaryOperator;

/**
 * What one of the experiments beyond Fig. 6 (V2, V3, V6–V10) produced on the switch node: its printed section (a
 * header line, the table, the paper's figure beside ours) and its CSV, written as {@code zerosided-<name>.csv}.
 *
 * @param name the experiment's option name ({@code q1}, {@code batching}, ...)
 * @param text the printed section, ending in a newline
 * @param csvHeader the CSV columns
 * @param csvRows the CSV rows
 */
record ExperimentResult(String name, String text, List<String> csvHeader, List<List<String>> csvRows) {

    ExperimentResult {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(text, "text is null");
        csvHeader = List.copyOf(csvHeader);
        csvRows = csvRows.stream().map(List::copyOf).toList();
    }

    ObjectNode toJson() {
        ObjectNode json =
                JsonNodeFactory.instance.objectNode().put("name", name).put("text", text);
        ArrayNode header = json.putArray("csvHeader");
        csvHeader.forEach(header::add);
        ArrayNode rows = json.putArray("csvRows");
        for (List<String> row : csvRows) {
            ArrayNode line = rows.addArray();
            row.forEach(line::add);
        }
        return json;
    }

    static ExperimentResult fromJson(JsonNode json) {
        List<String> header = new ArrayList<>();
        json.path("csvHeader").forEach(cell -> header.add(cell.asText()));
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode line : json.path("csvRows")) {
            List<String> row = new ArrayList<>();
            line.forEach(cell -> row.add(cell.asText()));
            rows.add(row);
        }
        return new ExperimentResult(
                json.path("name").asText(), json.path("text").asText(), header, rows);
    }

    /**
     * One plot line per series (CSV column 0): the median of {@code yColumn} for each value of {@code xColumn} (an
     * integer), passed through {@code scale}(x, median); the zero-sided series solid, the baselines dashed.
     */
    List<PlotWriter.Line> medianLines(int xColumn, int yColumn, DoubleBinaryOperator scale) {
        Map<String, Map<Integer, List<Double>>> values = new LinkedHashMap<>();
        for (List<String> row : csvRows) {
            values.computeIfAbsent(row.get(0), k -> new LinkedHashMap<>())
                    .computeIfAbsent(Integer.parseInt(row.get(xColumn)), k -> new ArrayList<>())
                    .add(Double.parseDouble(row.get(yColumn)));
        }
        List<PlotWriter.Line> lines = new ArrayList<>();
        values.forEach((series, byX) -> {
            List<Integer> xs = List.copyOf(byX.keySet());
            lines.add(new PlotWriter.Line(
                    series,
                    xs.stream().map(Integer::doubleValue).toList(),
                    xs.stream()
                            .map(x -> scale.applyAsDouble(x, Medians.of(byX.get(x))))
                            .toList(),
                    !series.equals(ZeroSidedTupleShuffle.NAME)));
        });
        return lines;
    }
}
