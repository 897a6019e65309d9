package dev.faro.bench;

import java.util.Locale;

/**
 * Parses and prints byte counts with binary suffixes, as experiment parameters use them: {@code 64}, {@code 4K},
 * {@code 1M}, {@code 2G} (also {@code KiB}, {@code MB} and lower case; every suffix means a power of 1024).
 * Coordination code.
 */
public final class ByteSizes {

    private ByteSizes() {}

    /**
     * Parses {@code text} such as {@code 64}, {@code 16K} or {@code 1MiB} into a positive byte count.
     *
     * @throws IllegalArgumentException with a message that quotes the text and shows the accepted forms
     */
    public static long parse(String text) {
        String trimmed = text.strip();
        int end = 0;
        while (end < trimmed.length() && Character.isDigit(trimmed.charAt(end))) {
            end++;
        }
        if (end == 0 || end > 18) {
            throw invalid(text);
        }
        long value = Long.parseLong(trimmed.substring(0, end));
        int shift = switch (trimmed.substring(end).strip().toUpperCase(Locale.ROOT)) {
            case "", "B" -> 0;
            case "K", "KB", "KIB" -> 10;
            case "M", "MB", "MIB" -> 20;
            case "G", "GB", "GIB" -> 30;
            default -> throw invalid(text);
        };
        if (value <= 0 || value > (Long.MAX_VALUE >> shift)) {
            throw invalid(text);
        }
        return value << shift;
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + text
                + "' is not a byte size: use a positive number with an optional K, M or G suffix (64, 4K, 1M)");
    }

    /** A short label: {@code 64 B}, {@code 4 KiB}, {@code 1 MiB}; sizes that are no whole unit print in bytes. */
    public static String format(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    /** The compact form {@link #parse} accepts back: {@code 64}, {@code 4K}, {@code 1M}. */
    public static String formatCompact(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "G";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "M";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "K";
        }
        return Long.toString(bytes);
    }
}
