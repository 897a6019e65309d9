package dev.faro.cluster.tpch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.Column;
import dev.faro.engine.vector.DataType;
import dev.faro.engine.vector.Schema;
import dev.faro.engine.vector.TypeKind;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Query results between a worker and the coordinator as JSON: the columns (name, kind, scale) and the rows, values
 * exact — decimals as their decimal text, dates ISO, the rest as JSON numbers, strings and booleans. Decoded rows hold
 * {@link Long}, {@link Integer}, {@link Double}, {@link BigDecimal}, {@link LocalDate}, {@link String}, {@link Boolean}
 * or null. Coordination code: results are small (TPC-H answers are at most thousands of rows).
 */
public final class ResultCodec {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ResultCodec() {}

    /** The columns of {@code schema} as {@code [{"name":..,"kind":..,"scale":..}]}. */
    public static ArrayNode encodeColumns(Schema schema) {
        ArrayNode columns = JSON.arrayNode();
        for (Column column : schema.columns()) {
            columns.addObject()
                    .put("name", column.name())
                    .put("kind", column.type().kind().name())
                    .put("scale", column.type().scale());
        }
        return columns;
    }

    /** Every row of {@code batches} as a JSON array of arrays. */
    public static ArrayNode encodeRows(Schema schema, List<Batch> batches) {
        ArrayNode rows = JSON.arrayNode();
        List<Column> columns = schema.columns();
        for (Batch batch : batches) {
            for (List<Object> raw : batch.rows()) {
                ArrayNode row = rows.addArray();
                for (int c = 0; c < columns.size(); c++) {
                    encodeValue(row, columns.get(c).type(), raw.get(c));
                }
            }
        }
        return rows;
    }

    private static void encodeValue(ArrayNode row, DataType type, Object value) {
        if (value == null) {
            row.addNull();
            return;
        }
        switch (type.kind()) {
            case DECIMAL ->
                row.add(BigDecimal.valueOf((Long) value, type.scale()).toPlainString());
            case DATE -> row.add(LocalDate.ofEpochDay((Integer) value).toString());
            case BIGINT -> row.add((Long) value);
            case INTEGER -> row.add((Integer) value);
            case DOUBLE -> row.add((Double) value);
            case BOOLEAN -> row.add((Boolean) value);
            case VARCHAR -> row.add((String) value);
        }
    }

    /** The column names of an {@link #encodeColumns} array. */
    public static List<String> columnNames(JsonNode columns) {
        List<String> names = new ArrayList<>();
        columns.forEach(column -> names.add(column.get("name").asText()));
        return names;
    }

    /** The rows of an {@link #encodeRows} array, typed by the {@link #encodeColumns} array. */
    public static List<List<Object>> decodeRows(JsonNode columns, JsonNode rows) {
        List<TypeKind> kinds = new ArrayList<>();
        columns.forEach(column -> kinds.add(TypeKind.valueOf(column.get("kind").asText())));
        List<List<Object>> decoded = new ArrayList<>();
        for (JsonNode row : rows) {
            List<Object> values = new ArrayList<>(kinds.size());
            for (int c = 0; c < kinds.size(); c++) {
                values.add(decodeValue(kinds.get(c), row.get(c)));
            }
            decoded.add(values);
        }
        return decoded;
    }

    private static Object decodeValue(TypeKind kind, JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        return switch (kind) {
            case DECIMAL -> new BigDecimal(value.asText());
            case DATE -> LocalDate.parse(value.asText());
            case BIGINT -> value.asLong();
            case INTEGER -> value.asInt();
            case DOUBLE -> value.asDouble();
            case BOOLEAN -> value.asBoolean();
            case VARCHAR -> value.asText();
        };
    }

    static ObjectNode object() {
        return JSON.objectNode();
    }
}
