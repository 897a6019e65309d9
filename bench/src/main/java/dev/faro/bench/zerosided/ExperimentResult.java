package dev.faro.bench.zerosided;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
}
