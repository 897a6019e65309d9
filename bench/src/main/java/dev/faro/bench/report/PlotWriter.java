package dev.faro.bench.report;

import dev.faro.bench.ByteSizes;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots with XChart. Runs headless: no display is needed.
 */
public final class PlotWriter {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 620;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private PlotWriter() {}

    /**
     * One line of a size sweep: a value per message size.
     *
     * @param name the legend entry
     * @param sizesBytes x values, ascending
     * @param values y values, as many as sizes
     * @param dashed draw the line dashed (for baselines)
     */
    public record Series(String name, List<Long> sizesBytes, List<Double> values, boolean dashed) {
        public Series {
            Objects.requireNonNull(name, "name is null");
            sizesBytes = List.copyOf(sizesBytes);
            values = List.copyOf(values);
            if (sizesBytes.size() != values.size() || sizesBytes.isEmpty()) {
                throw new IllegalArgumentException("series '" + name + "' needs as many values as sizes, at least one: "
                        + sizesBytes.size() + " sizes, " + values.size() + " values");
            }
        }
    }

    /**
     * Plots {@code series} over message size on a log-2 x axis (labelled 64 B, 1 KiB, ...) and writes a PNG.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void writeSizeSweep(Path file, String title, String yAxisTitle, List<Series> series) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle("message size (log scale)")
                .yAxisTitle(yAxisTitle)
                .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setXAxisTickMarkSpacingHint(60);
        chart.getStyler().setXAxisTickLabelsFormattingFunction(PlotWriter::sizeLabel);
        for (Series line : series) {
            double[] x = new double[line.sizesBytes().size()];
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = Math.log(line.sizesBytes().get(i)) / Math.log(2);
                y[i] = line.values().get(i);
            }
            XYSeries plotted = chart.addSeries(line.name(), x, y);
            plotted.setMarker(SeriesMarkers.CIRCLE);
            if (line.dashed()) {
                plotted.setLineStyle(new BasicStroke(
                        2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
            }
        }
        try {
            Path directory = file.toAbsolutePath().getParent();
            if (directory != null) {
                Files.createDirectories(directory);
            }
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", file.toFile())) {
                throw new IOException("no PNG writer available");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * One line of an experiment's plot over any x axis.
     *
     * @param name the legend entry
     * @param x x values, ascending
     * @param y y values, as many as x values (NaN points are left out)
     * @param dashed draw the line dashed (for baselines)
     */
    public record Line(String name, List<Double> x, List<Double> y, boolean dashed) {
        public Line {
            Objects.requireNonNull(name, "name is null");
            x = List.copyOf(x);
            y = List.copyOf(y);
            if (x.size() != y.size()) {
                throw new IllegalArgumentException("line '" + name + "' needs as many y as x values");
            }
        }
    }

    /**
     * Plots {@code lines} over a linear or log-2 x axis and writes a PNG; lines without a finite point are left out.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void writeLines(
            Path file, String title, String xAxisTitle, boolean log2X, String yAxisTitle, List<Line> lines) {
        XYChart chart = new XYChartBuilder()
                .width(WIDTH)
                .height(HEIGHT)
                .title(title)
                .xAxisTitle(log2X ? xAxisTitle + " (log scale)" : xAxisTitle)
                .yAxisTitle(yAxisTitle)
                .build();
        Styler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        if (log2X) {
            chart.getStyler()
                    .setXAxisTickLabelsFormattingFunction(v -> Math.abs(v - Math.rint(v)) < 1e-6
                            ? String.format(java.util.Locale.ROOT, "%.0f", Math.pow(2, v))
                            : "");
        }
        int added = 0;
        for (Line line : lines) {
            List<Double> x = new java.util.ArrayList<>();
            List<Double> y = new java.util.ArrayList<>();
            for (int i = 0; i < line.x().size(); i++) {
                if (Double.isFinite(line.y().get(i))) {
                    x.add(
                            log2X
                                    ? Math.log(line.x().get(i)) / Math.log(2)
                                    : line.x().get(i));
                    y.add(line.y().get(i));
                }
            }
            if (x.isEmpty()) {
                continue;
            }
            XYSeries plotted = chart.addSeries(line.name(), x, y);
            added++;
            plotted.setMarker(SeriesMarkers.CIRCLE);
            if (line.dashed()) {
                plotted.setLineStyle(new BasicStroke(
                        2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
            }
        }
        if (added == 0) {
            chart.addSeries("no data", new double[] {0}, new double[] {0});
        }
        try {
            Path directory = file.toAbsolutePath().getParent();
            if (directory != null) {
                Files.createDirectories(directory);
            }
            if (!ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", file.toFile())) {
                throw new IOException("no PNG writer available");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** A tick at log2(size): the size's label at whole powers of two, nothing in between. */
    static String sizeLabel(double log2Size) {
        long rounded = Math.round(log2Size);
        if (Math.abs(log2Size - rounded) > 1e-6 || rounded < 0 || rounded > 62) {
            return "";
        }
        return ByteSizes.format(1L << rounded);
    }
}
