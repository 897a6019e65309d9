package dev.faro.cluster.protocol;

/**
 * Text that came from a peer (a header field, a parse error quoting its bytes), made safe for one log line: control
 * characters (newlines, ANSI escape sequences, NUL, DEL, C1 controls) become visible escapes such as {@code \n} or
 * {@code \x1b}, and the text is cut at a length with a count of what was left out. An unauthenticated client can
 * then neither forge log lines nor drive the operator's terminal. Coordination code.
 */
public final class PeerText {

    /** The default cap on the characters of peer text in one log line. */
    public static final int DEFAULT_MAX_CHARS = 200;

    private PeerText() {}

    /** {@code text} with control characters escaped, cut at {@value #DEFAULT_MAX_CHARS} characters. */
    public static String sanitize(String text) {
        return sanitize(text, DEFAULT_MAX_CHARS);
    }

    /** {@code text} with control characters escaped, cut at {@code maxChars} characters of the escaped form. */
    public static String sanitize(String text, int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive: maxChars=" + maxChars);
        }
        if (text == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), maxChars) + 16);
        int index = 0;
        while (index < text.length() && out.length() < maxChars) {
            int code = text.codePointAt(index);
            index += Character.charCount(code);
            switch (code) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (isControl(code)) {
                        out.append(code <= 0xff ? String.format("\\x%02x", code) : String.format("\\u%04x", code));
                    } else {
                        out.appendCodePoint(code);
                    }
                }
            }
        }
        if (index < text.length()) {
            out.append("...(").append(text.length() - index).append(" more chars)");
        }
        return out.toString();
    }

    /**
     * C0 and C1 controls, DEL, and the format characters that reorder or hide text on a terminal (bidirectional
     * overrides, zero-width characters, line and paragraph separators).
     */
    private static boolean isControl(int code) {
        int type = Character.getType(code);
        return Character.isISOControl(code)
                || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }
}
