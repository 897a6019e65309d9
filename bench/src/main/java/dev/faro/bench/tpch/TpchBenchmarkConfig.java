package dev.faro.bench.tpch;

import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.Placement;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Parameters of {@code faro bench tpch}: the cluster (nodes, engine threads per node), the database (scale factor),
 * the queries, how many timed runs each (system, query) pair gets after one warm-up run, and which exchange
 * transports to compare (names as {@link TpchBenchmark#transports} reads them, in report order). One node measures the
 * engine alone (no exchange crosses a process, so the transports do not differ and only one runs). A non-null
 * {@code profileDirectory} makes every local worker record a JFR profile into it.
 */
public record TpchBenchmarkConfig(
        int nodes,
        double scaleFactor,
        List<Integer> queries,
        int threads,
        int runs,
        Path outputDirectory,
        List<String> transports,
        Path profileDirectory) {

    public static final Path DEFAULT_OUTPUT_DIRECTORY = Path.of("results");

    /** The transports compared by default: MESQ/SR, the six RC designs and the TCP socket baseline. */
    public static final List<String> DEFAULT_TRANSPORTS =
            List.of("MESQ/SR", "SEMQ/SR", "MEMQ/SR", "SEMQ/RD", "MEMQ/RD", "SEMQ/WR", "MEMQ/WR", "tcp");

    public TpchBenchmarkConfig {
        queries = List.copyOf(queries);
        transports = List.copyOf(transports);
        if (transports.isEmpty()) {
            throw new IllegalArgumentException("no transports given");
        }
        Objects.requireNonNull(outputDirectory, "outputDirectory is null");
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        if (!(scaleFactor > 0) || Double.isInfinite(scaleFactor)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + scaleFactor);
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no queries given");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads per node must be positive, got " + threads);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, got " + runs);
        }
    }

    /** 2 nodes, SF 1, Q3, Q4 and Q10 (TODS19 §7.2's queries), 2 threads per node, 3 runs. */
    public static TpchBenchmarkConfig defaults() {
        return new TpchBenchmarkConfig(
                2, 1, List.of(3, 4, 10), 2, 3, DEFAULT_OUTPUT_DIRECTORY, DEFAULT_TRANSPORTS, null);
    }

    /** A smoke test: SF 0.01, one run. */
    public static TpchBenchmarkConfig quick() {
        return new TpchBenchmarkConfig(
                2, 0.01, List.of(3, 4, 10), 2, 1, DEFAULT_OUTPUT_DIRECTORY, DEFAULT_TRANSPORTS, null);
    }

    public TpchBenchmarkConfig withNodes(int value) {
        return new TpchBenchmarkConfig(
                value, scaleFactor, queries, threads, runs, outputDirectory, transports, profileDirectory);
    }

    public TpchBenchmarkConfig withScaleFactor(double value) {
        return new TpchBenchmarkConfig(
                nodes, value, queries, threads, runs, outputDirectory, transports, profileDirectory);
    }

    public TpchBenchmarkConfig withQueries(List<Integer> value) {
        return new TpchBenchmarkConfig(
                nodes, scaleFactor, value, threads, runs, outputDirectory, transports, profileDirectory);
    }

    public TpchBenchmarkConfig withThreads(int value) {
        return new TpchBenchmarkConfig(
                nodes, scaleFactor, queries, value, runs, outputDirectory, transports, profileDirectory);
    }

    public TpchBenchmarkConfig withRuns(int value) {
        return new TpchBenchmarkConfig(
                nodes, scaleFactor, queries, threads, value, outputDirectory, transports, profileDirectory);
    }

    public TpchBenchmarkConfig withOutputDirectory(Path value) {
        return new TpchBenchmarkConfig(nodes, scaleFactor, queries, threads, runs, value, transports, profileDirectory);
    }

    /** The transports to compare; checked by {@link TpchBenchmark#transports}. */
    public TpchBenchmarkConfig withTransports(List<String> value) {
        TpchBenchmark.transports(
                new TpchSettings(scaleFactor, Placement.RANDOM, threads, EndpointDesign.MESQ_SR), value);
        return new TpchBenchmarkConfig(
                nodes, scaleFactor, queries, threads, runs, outputDirectory, value, profileDirectory);
    }

    /** Every local worker records a JFR profile into {@code value} (null: none). */
    public TpchBenchmarkConfig withProfileDirectory(Path value) {
        return new TpchBenchmarkConfig(nodes, scaleFactor, queries, threads, runs, outputDirectory, transports, value);
    }

    /** Whether this is the engine alone: one node, so no exchange crosses a process. */
    public boolean singleNode() {
        return nodes == 1;
    }
}
