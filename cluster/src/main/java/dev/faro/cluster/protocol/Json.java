package dev.faro.cluster.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The cluster's one Jackson mapper (thread-safe once configured) and small tree helpers, among them the strict field
 * readers that decode what a peer sent (task payloads): a field that is missing or of the wrong kind is a
 * {@link ProtocolException} naming the field, never a default value or another exception.
 */
public final class Json {

    /** Shared by every thread; configured once here and never changed. */
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** A new empty JSON object. */
    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** {@code value} as a JSON tree (records, maps, lists, strings, numbers). */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** {@code message} (e.g. "query payload") as a JSON object, or a {@link ProtocolException}. */
    public static JsonNode requireObject(JsonNode message, String what) {
        if (message == null || !message.isObject()) {
            throw new ProtocolException(what + " is not a JSON object");
        }
        return message;
    }

    /** A field of {@code message} that is present and not null. */
    public static JsonNode required(JsonNode message, String field, String what) {
        JsonNode node = message.get(field);
        if (node == null || node.isNull()) {
            throw new ProtocolException(what + " lacks field '" + field + "'");
        }
        return node;
    }

    /** A text field. */
    public static String text(JsonNode message, String field, String what) {
        JsonNode node = required(message, field, what);
        if (!node.isTextual()) {
            throw new ProtocolException(what + "." + field + " is not text: " + node);
        }
        return node.textValue();
    }

    /** An integral field within the range of an int. */
    public static int intNumber(JsonNode message, String field, String what) {
        JsonNode node = required(message, field, what);
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new ProtocolException(what + "." + field + " is not an int: " + node);
        }
        return node.intValue();
    }

    /** A finite number field. */
    public static double number(JsonNode message, String field, String what) {
        JsonNode node = required(message, field, what);
        if (!node.isNumber() || !Double.isFinite(node.doubleValue())) {
            throw new ProtocolException(what + "." + field + " is not a finite number: " + node);
        }
        return node.doubleValue();
    }

    /** A text field naming a constant of {@code type}. */
    public static <E extends Enum<E>> E enumValue(JsonNode message, String field, Class<E> type, String what) {
        String name = text(message, field, what);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(name)) {
                return constant;
            }
        }
        throw new ProtocolException(what + "." + field + " is not a " + type.getSimpleName() + ": '" + name + "'");
    }
}
