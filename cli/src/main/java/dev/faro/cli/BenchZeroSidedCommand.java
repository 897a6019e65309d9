package dev.faro.cli;

import dev.faro.bench.zerosided.ZeroSidedBenchConfig;
import dev.faro.bench.zerosided.ZeroSidedBenchmark;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code faro bench zerosided}: wiring only. Parses the options into a {@link ZeroSidedBenchConfig}, runs
 * {@link ZeroSidedBenchmark} on three local worker JVMs and prints its table. Bad values are parameter errors (exit
 * 2, one line plus usage); a run that fails (a worker died) prints one line and exits 1.
 */
@Command(
        name = "zerosided",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "SIGMOD24 zero-sided RDMA, Fig. 6: aggregate throughput of N concurrent 1:1 flows moved by the software"
                    + " switch (no endpoint CPU) against a CPU-driven one-sided baseline with 1 and 2 driver threads,"
                    + " in one invocation.",
            "Three local worker JVMs: node 0 runs the switch, node 1 the producer threads (and the baseline's drivers),"
                    + " node 2 the consumer threads. Zero-sided traffic is RoCE-like packets between simulated RC NICs"
                    + " and the switch over shared-memory packet rings (--link shm, the default) or UDP on 127.0.0.1"
                    + " (--link udp); the baseline posts RC WRITEs on the --provider fabric.",
            "The switch's own forwarding rate (against perfect NICs, no I/O) is measured first; every figure is also"
                    + " shown as a ratio to it. Prints a table with the paper's column and writes zerosided.csv, .json"
                    + " and .png under --out."
        })
final class BenchZeroSidedCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(
            names = "--flows",
            paramLabel = "N",
            split = ",",
            description =
                    "Concurrent 1:1 flows (each a producer and a consumer thread) (default: 1,2,4; --quick: 1,2).")
    private List<Integer> flows;

    @Option(
            names = "--drivers",
            paramLabel = "N",
            split = ",",
            description = "CPU driver threads of the baseline (default: 1,2).")
    private List<Integer> drivers;

    @Option(
            names = "--item-size",
            paramLabel = "BYTES",
            description = "Item size in bytes, a multiple of 8 (default: 4096, the paper's Fig. 6 point).")
    private Integer itemBytes;

    @Option(
            names = "--seconds",
            paramLabel = "SECONDS",
            description = "Timed window of one run (default: 2; --quick: 0.5).")
    private Double seconds;

    @Option(
            names = "--runs",
            paramLabel = "N",
            description = "Runs per point, interleaved across the series; the table shows the median (default: 3;"
                    + " --quick: 1).")
    private Integer runs;

    @Option(
            names = "--provider",
            paramLabel = "PROVIDER",
            description = "The verbs fabric of the CPU-driven baseline: shm, net or ucx (default: ${DEFAULT-VALUE}).")
    private String provider = ZeroSidedBenchConfig.DEFAULT.provider();

    @Option(
            names = "--link",
            paramLabel = "LINK",
            description = "The zero-sided packet link: shm (byte-exact packets through shared-memory rings, no system"
                    + " call per packet) or udp (a UDP datagram per packet on 127.0.0.1) (default: ${DEFAULT-VALUE}).")
    private String link = ZeroSidedBenchConfig.DEFAULT.link();

    @Option(
            names = "--experiments",
            paramLabel = "NAME",
            split = ",",
            description = "Experiments after Fig. 6, each run on the switch node in one process: batching (V2, Fig. 7),"
                    + " latency (V3, polling vs doorbell, Fig. 10), q1 (V6, TPC-H Q1 load balancing, Fig. 16),"
                    + " elasticity (V7, Fig. 13), replication (V8/V9, Figs. 12, 14), qos (V10, Fig. 11), shuffle"
                    + " (V5, N:M shuffle against TCP and MPI-like baselines, Fig. 9), join (V11, distributed join on 1"
                    + " and 2 simulated nodes, Fig. 15); all or none (default: all).")
    private List<String> experiments;

    @Option(
            names = "--pin",
            description = "Fig. 6 with the network and the processing units on separate CPUs: the switch, the simulated"
                    + " NICs and the fabric's progress threads on the first allowed CPU; producers, consumers and the"
                    + " baseline's driver threads on the last (the paper's switch and NICs are separate hardware).")
    private boolean pin;

    @Option(
            names = "--endpoint-work",
            paramLabel = "ROUNDS",
            description = "Make producers and consumers compute-bound: between items each does units of ROUNDS hash"
                    + " rounds and never parks; the table adds the units done per second (their useful work)"
                    + " (default: 0, they only push and pop).")
    private int endpointWork;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    private Path outputDirectory = ZeroSidedBenchConfig.DEFAULT.outputDirectory();

    @Option(names = "--quick", description = "Two flow counts, one short run each: a smoke test of seconds.")
    private boolean quick;

    @Override
    public Integer call() throws InterruptedException {
        BenchRun run = new BenchRun(spec);
        ZeroSidedBenchConfig config = run.options(() -> {
            if (!List.of("shm", "net", "ucx").contains(provider)) {
                throw new IllegalArgumentException("--provider must be shm, net or ucx: " + provider);
            }
            return (quick ? ZeroSidedBenchConfig.QUICK : ZeroSidedBenchConfig.DEFAULT)
                    .with(flows, drivers, itemBytes, seconds, runs)
                    .withProvider(provider)
                    .withLink(link)
                    .withExperiments(
                            experiments == null || experiments.equals(List.of("all"))
                                    ? ZeroSidedBenchConfig.DEFAULT.experiments()
                                    : experiments.equals(List.of("none")) ? List.of() : experiments)
                    .withOutputDirectory(outputDirectory)
                    .withPlacement(pin, endpointWork);
        });
        return run.run(out -> {
            ZeroSidedBenchmark.Report report = new ZeroSidedBenchmark(config, run.progress()).run();
            out.print(report.table());
            List<Path> files =
                    new java.util.ArrayList<>(List.of(report.csvFile(), report.metadataFile(), report.plotFile()));
            files.addAll(report.experimentFiles());
            BenchRun.printWrote(out, files);
        });
    }
}
