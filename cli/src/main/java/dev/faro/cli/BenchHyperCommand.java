package dev.faro.cli;

import dev.faro.bench.hyper.HyperCountsBenchmark;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench hyper}: wiring only. Runs {@link HyperCountsBenchmark} (VLDB16 V1) and prints its table. Bad
 * values are parameter errors (exit 2); a run that fails prints one line and exits 1.
 */
@Command(
        name = "hyper",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "VLDB16 (HyPer) V1: connections in the cluster, buffers per exchange operator and the size ratio up to"
                    + " which a broadcast pays, for classic parallelism (n*t units) against hybrid parallelism (one"
                    + " multiplexer per node), from the paper's formulas, next to the queue pairs real hyper"
                    + " multiplexers connected (in-process nodes over shm, one repartition exchange each).",
            "The paper's row is 6 nodes x 40 threads: 57,560 vs 30 connections, 239 vs 5 buffers. Writes"
                    + " hyper-v1.csv and hyper-v1.png under --out."
        })
final class BenchHyperCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--nodes",
            paramLabel = "N",
            split = ",",
            description = "Node counts, each in [2, 8] (default: 2,3,4,6,8).")
    private List<Integer> nodes = List.of(2, 3, 4, 6, 8);

    @Option(
            names = "--threads",
            paramLabel = "T",
            description = "Threads per node of the formulas (default: ${DEFAULT-VALUE}, the paper's).")
    private int threads = 40;

    @Option(
            names = "--measured-threads",
            paramLabel = "T",
            description = "Threads per node of the measured exchange, in [1, 8] (default: ${DEFAULT-VALUE}).")
    private int measuredThreads = 2;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = Path.of("results");

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        HyperCountsBenchmark benchmark = run.options(
                () -> new HyperCountsBenchmark(nodes, threads, measuredThreads, outputDirectory, run.progress()));
        return run.run(out -> {
            HyperCountsBenchmark.Report report = benchmark.run();
            out.print(report.table());
            BenchRun.printWrote(out, List.of(report.csvFile(), report.plotFile()));
        });
    }
}
