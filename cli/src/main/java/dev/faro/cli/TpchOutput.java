package dev.faro.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.bench.report.ResultTable;
import dev.faro.cluster.tpch.QueryOutcome;
import dev.faro.cluster.tpch.TpchSettings;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints {@code faro tpch}'s answers: {@link Format#table} shows each answer's first rows and a summary of the
 * figures; {@link Format#csv} writes every answer in full (one CSV block per query, a header line first, blocks
 * separated by an empty line); {@link Format#json} writes one document with every answer and its figures.
 */
final class TpchOutput {

    enum Format {
        table,
        csv,
        json
    }

    private final Format format;
    private final int shownRows;
    private final PrintWriter out;
    private final List<QueryOutcome> outcomes = new ArrayList<>();

    TpchOutput(Format format, int shownRows, PrintWriter out) {
        this.format = format;
        this.shownRows = shownRows;
        this.out = out;
    }

    void add(QueryOutcome outcome) {
        outcomes.add(outcome);
        switch (format) {
            case table -> printAnswer(outcome);
            case csv -> printCsv(outcome);
            case json -> {} // one document at the end
        }
        out.flush();
    }

    void finish(TpchSettings settings, int nodes) {
        if (format == Format.json) {
            printJson(settings, nodes);
        } else if (format == Format.table) {
            printSummary(settings, nodes);
        }
        out.flush();
    }

    private void printAnswer(QueryOutcome outcome) {
        out.printf(
                "%nQ%d: %d row%s in %.3f s%n",
                outcome.query(),
                outcome.rows().size(),
                outcome.rows().size() == 1 ? "" : "s",
                outcome.elapsedNanos() / 1e9);
        List<ResultTable.Column> columns =
                outcome.columns().stream().map(ResultTable.Column::text).toList();
        List<List<String>> cells = outcome.rows().stream()
                .limit(shownRows)
                .map(row -> row.stream().map(TpchOutput::text).toList())
                .toList();
        out.print(new ResultTable(columns, cells).format());
        if (outcome.rows().size() > shownRows) {
            out.printf(
                    "... %d more row%s (--rows N shows more, --format csv all)%n",
                    outcome.rows().size() - shownRows, outcome.rows().size() - shownRows == 1 ? "" : "s");
        }
    }

    private void printSummary(TpchSettings settings, int nodes) {
        out.printf(
                "%nTPC-H SF %s on %d node%s, %s, %s placement, %d thread%s per node%n",
                number(settings.scaleFactor()),
                nodes,
                nodes == 1 ? "" : "s",
                settings.transport(),
                settings.placement().optionName(),
                settings.threads(),
                settings.threads() == 1 ? "" : "s");
        List<ResultTable.Column> columns = List.of(
                ResultTable.Column.text("query"),
                ResultTable.Column.number("rows"),
                ResultTable.Column.number("time s"),
                ResultTable.Column.number("shuffled MB"),
                ResultTable.Column.number("shuffle MB/s per node"));
        List<List<String>> rows = new ArrayList<>();
        for (QueryOutcome outcome : outcomes) {
            rows.add(List.of(
                    "Q" + outcome.query(),
                    String.valueOf(outcome.rows().size()),
                    String.format("%.3f", outcome.elapsedNanos() / 1e9),
                    String.format("%.1f", outcome.bytesShuffled() / 1e6),
                    String.format("%.1f", outcome.shuffleThroughputPerNode() / 1e6)));
        }
        out.print(new ResultTable(columns, rows).format());
    }

    private void printCsv(QueryOutcome outcome) {
        if (outcomes.size() > 1) {
            out.println();
        }
        out.println(String.join(
                ",", outcome.columns().stream().map(TpchOutput::csvCell).toList()));
        for (List<Object> row : outcome.rows()) {
            out.println(String.join(
                    ",", row.stream().map(value -> csvCell(text(value))).toList()));
        }
    }

    private void printJson(TpchSettings settings, int nodes) {
        // exact decimals, written in plain notation (1200.00, never 1.2E+3)
        ObjectMapper mapper = new ObjectMapper()
                .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true))
                .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        ObjectNode document = mapper.createObjectNode();
        document.put("scaleFactor", settings.scaleFactor())
                .put("nodes", nodes)
                .put("design", settings.transport())
                .put("placement", settings.placement().optionName())
                .put("threadsPerNode", settings.threads());
        ArrayNode queries = document.putArray("queries");
        for (QueryOutcome outcome : outcomes) {
            ObjectNode query = queries.addObject();
            query.put("query", outcome.query())
                    .put("seconds", outcome.elapsedNanos() / 1e9)
                    .put("bytesShuffled", outcome.bytesShuffled())
                    .put("shuffleBytesPerSecondPerNode", outcome.shuffleThroughputPerNode());
            ArrayNode columns = query.putArray("columns");
            outcome.columns().forEach(columns::add);
            ArrayNode rows = query.putArray("rows");
            for (List<Object> row : outcome.rows()) {
                ArrayNode values = rows.addArray();
                for (Object value : row) {
                    switch (value) {
                        case null -> values.addNull();
                        case Long l -> values.add(l);
                        case Integer i -> values.add(i);
                        case Double d -> values.add(d);
                        case BigDecimal decimal -> values.add(decimal); // exact
                        case Boolean b -> values.add(b);
                        default -> values.add(value.toString()); // strings, ISO dates
                    }
                }
            }
        }
        try {
            out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(document));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write the results as JSON: " + e.getMessage(), e);
        }
    }

    /** A value as shown: decimals in plain notation, dates ISO, null as NULL. */
    static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        return value instanceof BigDecimal decimal ? decimal.toPlainString() : value.toString();
    }

    private static String csvCell(String text) {
        if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0 && text.indexOf('\r') < 0) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
