package dev.faro.cluster.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One message of the cluster protocol: a JSON header (an object whose {@code "type"} field names a
 * {@link MessageType}) and an optional binary payload (empty when there is none). See the package documentation for
 * the wire layout.
 *
 * @param header the control message; never Java-serialized, always JSON
 * @param payload bytes carried next to the header unencoded (results); an empty array when none
 */
public record Frame(ObjectNode header, byte[] payload) {

    private static final byte[] NO_PAYLOAD = new byte[0];

    public Frame {
        Objects.requireNonNull(header, "header is null");
        Objects.requireNonNull(payload, "payload is null");
    }

    /** A new frame of {@code type} with an empty header body, to fill with {@code header().put(...)}. */
    public static Frame of(MessageType type) {
        ObjectNode header = Json.MAPPER.createObjectNode();
        header.put("type", type.name());
        return new Frame(header, NO_PAYLOAD);
    }

    /** This frame with {@code bytes} as its payload. */
    public Frame withPayload(byte[] bytes) {
        return new Frame(header, bytes == null ? NO_PAYLOAD : bytes);
    }

    /** The message type; an unknown type name is a {@link ProtocolException}. */
    public MessageType type() {
        JsonNode type = header.get("type");
        if (type == null || !type.isTextual()) {
            throw new ProtocolException("frame without a type: " + header);
        }
        try {
            return MessageType.valueOf(type.asText());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("unknown message type '" + type.asText() + "'");
        }
    }

    /** A fluent setter for the header. */
    public Frame put(String field, String value) {
        header.put(field, value);
        return this;
    }

    public Frame put(String field, long value) {
        header.put(field, value);
        return this;
    }

    public Frame put(String field, boolean value) {
        header.put(field, value);
        return this;
    }

    public Frame put(String field, JsonNode value) {
        header.set(field, value);
        return this;
    }

    /** A required text field. */
    public String text(String field) {
        return required(field).asText();
    }

    /** A required integral field. */
    public long number(String field) {
        JsonNode node = required(field);
        if (!node.canConvertToLong()) {
            throw new ProtocolException(type() + "." + field + " is not a number: " + node);
        }
        return node.asLong();
    }

    /** A required field of any kind. */
    public JsonNode required(String field) {
        JsonNode node = header.get(field);
        if (node == null || node.isNull()) {
            throw new ProtocolException(header.path("type").asText("?") + " lacks field '" + field + "'");
        }
        return node;
    }

    @Override
    public String toString() {
        return header + (payload.length == 0 ? "" : " + " + payload.length + " B");
    }
}
