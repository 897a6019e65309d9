package dev.faro.bench.locks;

import java.util.Locale;

/** How {@code faro bench locks} prints its numbers: rates with k / M, fixed decimals, "-" for what is not finite. */
final class LocksFormat {

    private LocksFormat() {}

    static String rate(double perSecond) {
        if (!Double.isFinite(perSecond)) {
            return "-";
        }
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.1f k", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }

    static String fixed(double value, int decimals) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%." + decimals + "f", value) : "-";
    }
}
