package dev.faro.bench.experiment;

import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * One PNG of an experiment: which results it shows (one line per series), over which x axis, and which number.
 *
 * @param suffix added to the experiment's file name ({@code e4-repartition.png}); empty for the main plot
 * @param title the chart's title
 * @param xAxisTitle the x axis
 * @param log2X whether x is on a log-2 scale
 * @param yAxisTitle the y axis
 * @param include which results to draw
 * @param metric the y value of a result
 */
public record Plot(
        String suffix,
        String title,
        String xAxisTitle,
        boolean log2X,
        String yAxisTitle,
        Predicate<TrialResult> include,
        ToDoubleFunction<TrialResult> metric) {

    public Plot {
        Objects.requireNonNull(suffix, "suffix is null");
        Objects.requireNonNull(title, "title is null");
        Objects.requireNonNull(xAxisTitle, "xAxisTitle is null");
        Objects.requireNonNull(yAxisTitle, "yAxisTitle is null");
        Objects.requireNonNull(include, "include is null");
        Objects.requireNonNull(metric, "metric is null");
    }

    /** Receive throughput per node (GB/s) of every result, over {@code xAxisTitle}. */
    public static Plot throughput(
            String suffix, String title, String xAxisTitle, boolean log2X, Predicate<TrialResult> include) {
        return new Plot(
                suffix,
                title,
                xAxisTitle,
                log2X,
                "GB/s per node (1e9 bytes/s)",
                include,
                TrialResult::gigabytesPerSecond);
    }
}
