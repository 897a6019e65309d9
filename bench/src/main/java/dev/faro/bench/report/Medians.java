package dev.faro.bench.report;

import java.util.Arrays;
import java.util.List;

/** The median every benchmark reports: the middle value, or the mean of the two middle ones for an even count. */
public final class Medians {

    private Medians() {}

    /** The median of {@code values} (not modified); NaN when there are none. */
    public static double of(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** The median of {@code values}; NaN when null or empty. */
    public static double of(List<Double> values) {
        return values == null
                ? Double.NaN
                : of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
