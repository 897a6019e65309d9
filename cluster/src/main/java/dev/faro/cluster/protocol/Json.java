package dev.faro.cluster.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The cluster's one Jackson mapper (thread-safe once configured) and small tree helpers. */
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
}
