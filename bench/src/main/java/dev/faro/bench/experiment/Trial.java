package dev.faro.bench.experiment;

import dev.faro.bench.shuffle.ShuffleCase;
import java.util.Objects;

/**
 * One point of an experiment: a shuffle to run (by a design, the TCP baseline, or the MPI program) and where it goes in
 * the table and the plot. Immutable.
 *
 * @param series the line or bar group it belongs to, e.g. {@code MESQ/SR} or {@code MPI}
 * @param x its position on the x axis (node count, message size, credit interval, ...)
 * @param xLabel how the table prints {@code x}
 * @param group trials measured at the same data volume: the calibration scales their scans together
 * @param shuffleCase the shuffle (for MPI: its pattern, nodes, threads' rows and scans)
 * @param mpi whether the MPI program runs it instead of the worker processes
 * @param local whether it is the no-shuffle baseline: the receive side's compute on local data ({@link
 *     dev.faro.bench.shuffle.LocalCompute}), run in the harness's JVM
 */
public record Trial(
        String series, double x, String xLabel, String group, ShuffleCase shuffleCase, boolean mpi, boolean local) {

    public Trial {
        Objects.requireNonNull(series, "series is null");
        Objects.requireNonNull(xLabel, "xLabel is null");
        Objects.requireNonNull(group, "group is null");
        Objects.requireNonNull(shuffleCase, "shuffleCase is null");
    }

    /** A trial the worker processes run. */
    public static Trial of(String series, double x, String xLabel, String group, ShuffleCase shuffleCase) {
        return new Trial(series, x, xLabel, group, shuffleCase, false, false);
    }

    /** The same shuffle, run by the MPI program. */
    public Trial asMpi() {
        return new Trial("MPI", x, xLabel, group, shuffleCase, true, false);
    }

    /** The receive side's compute of the same case on local data, without a shuffle (E7's reference). */
    public Trial asLocal() {
        return new Trial("local", x, xLabel, group, shuffleCase, false, true);
    }

    /** The same shuffle over the TCP socket baseline. */
    public Trial asTcp() {
        return new Trial("TCP", x, xLabel, group, shuffleCase.asTcpBaseline(), false, false);
    }

    /** The same trial with {@code scans} scans of every table. */
    public Trial withScans(int scans) {
        return new Trial(series, x, xLabel, group, shuffleCase.withScans(scans), mpi, local);
    }

    /** What carries the tuples: a design's paper name, {@code TCP} or {@code MPI}. */
    public String contender() {
        return mpi ? "MPI" : local ? "local" : shuffleCase.contender();
    }

    /** A unique key: series, x and group. */
    public String key() {
        return series + "@" + xLabel + "@" + group;
    }
}
