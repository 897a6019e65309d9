package dev.faro.bench.report;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON printer for metadata: maps, lists, strings, numbers, booleans and null. Anything else prints as its
 * {@code toString()} in quotes.
 */
final class Json {

    private Json() {}

    static void append(StringBuilder json, Object value, String indent) {
        switch (value) {
            case null -> json.append("null");
            case Map<?, ?> map -> appendObject(json, map, indent);
            case List<?> list -> appendArray(json, list, indent);
            case Number number when isFinite(number) -> json.append(number);
            case Boolean bool -> json.append(bool);
            default -> appendString(json, value.toString());
        }
    }

    private static boolean isFinite(Number number) {
        return !(number instanceof Double d && !Double.isFinite(d))
                && !(number instanceof Float f && !Float.isFinite(f));
    }

    private static void appendObject(StringBuilder json, Map<?, ?> map, String indent) {
        if (map.isEmpty()) {
            json.append("{}");
            return;
        }
        String inner = indent + "  ";
        json.append("{\n");
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<?, ?> entry = entries.next();
            json.append(inner);
            appendString(json, String.valueOf(entry.getKey()));
            json.append(": ");
            append(json, entry.getValue(), inner);
            json.append(entries.hasNext() ? ",\n" : "\n");
        }
        json.append(indent).append('}');
    }

    private static void appendArray(StringBuilder json, List<?> list, String indent) {
        json.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) {
                json.append(", ");
            }
            append(json, list.get(i), indent);
        }
        json.append(']');
    }

    static void appendString(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
