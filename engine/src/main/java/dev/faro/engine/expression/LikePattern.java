package dev.faro.engine.expression;

import java.util.ArrayList;
import java.util.List;

/**
 * A LIKE pattern compiled once. Without {@code _} (the TPC-H patterns: {@code %special%requests%}, {@code PROMO%},
 * {@code %BRASS}) it is a sequence of literal parts between {@code %}s, matched with {@code startsWith}, {@code
 * indexOf} (a JDK intrinsic) and {@code endsWith}; a pattern with {@code _} falls back to the backtracking matcher of
 * {@link LikeEvaluator#matches}. Immutable; data path: never allocates.
 */
final class LikePattern {

    private final String pattern;
    /** The literal parts between {@code %}s (empty ones dropped); null when the pattern has a {@code _}. */
    private final String[] parts;

    private final boolean anchoredStart;
    private final boolean anchoredEnd;
    private final int minimumLength;

    LikePattern(String pattern) {
        this.pattern = pattern;
        if (pattern.indexOf('_') >= 0) {
            parts = null;
            anchoredStart = false;
            anchoredEnd = false;
            minimumLength = 0;
            return;
        }
        List<String> split = new ArrayList<>();
        int length = 0;
        for (String part : pattern.split("%", -1)) {
            if (!part.isEmpty()) {
                split.add(part);
                length += part.length();
            }
        }
        parts = split.toArray(new String[0]);
        anchoredStart = !pattern.startsWith("%") && !pattern.isEmpty();
        anchoredEnd = !pattern.endsWith("%") && !pattern.isEmpty();
        minimumLength = length;
    }

    /** Whether {@code text} (not null) matches. */
    boolean matches(String text) {
        if (parts == null) {
            return LikeEvaluator.matches(text, pattern);
        }
        if (text.length() < minimumLength) {
            return false;
        }
        int count = parts.length;
        if (count == 0) {
            return pattern.isEmpty() ? text.isEmpty() : true; // '' matches only ''; '%...%' matches anything
        }
        int from = 0;
        int first = 0;
        int last = count;
        if (anchoredStart) {
            if (!text.startsWith(parts[0])) {
                return false;
            }
            from = parts[0].length();
            first = 1;
            if (count == 1 && anchoredEnd) {
                return text.length() == parts[0].length();
            }
        }
        int end = text.length();
        if (anchoredEnd) {
            String tail = parts[count - 1];
            if (end - tail.length() < from || !text.endsWith(tail)) {
                return false;
            }
            end -= tail.length();
            last = count - 1;
        }
        for (int p = first; p < last; p++) {
            int at = text.indexOf(parts[p], from);
            if (at < 0 || at + parts[p].length() > end) {
                return false;
            }
            from = at + parts[p].length();
        }
        return true;
    }
}
