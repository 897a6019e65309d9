package dev.faro.bench.zerosided;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench zerosided} on three real worker JVMs: the body once with one short point per series (the switch
 * process, the producers' and consumers' hosts over shared-memory packet links, the CPU-driven baseline over shm) and
 * the Q1 experiment on the switch node (the other experiments run in {@code ZeroSidedExperimentsTest}), and a
 * consumer host killed in the
 * middle of a zero-sided run: one line naming the point and the node, no hang, no worker left.
 */
class ZeroSidedBenchmarkIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    private static ZeroSidedBenchConfig tiny(Path out) {
        return ZeroSidedBenchConfig.QUICK
                .with(List.of(1), List.of(1), null, 0.3, 1)
                .withExperiments(List.of(Q1LoadBalancing.NAME))
                .withOutputDirectory(out);
    }

    @Test
    void measuresEverySeriesAndWritesTheReport(@TempDir Path out) throws Exception {
        ZeroSidedBenchmark.Report report = new ZeroSidedBenchmark(tiny(out), progress::add).run();

        assertThat(report.table())
                .contains("switch's own forwarding rate")
                .contains("zero-sided GB/s", "cpu-driven (1 driver) GB/s", "paper")
                .contains("no numbers in the text");
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv.get(0)).startsWith("series,flows,run,bytes_per_second");
        assertThat(csv).hasSize(3);
        assertThat(Double.parseDouble(csv.get(1).split(",")[3]))
                .as("zero-sided moved items")
                .isPositive();
        assertThat(Double.parseDouble(csv.get(2).split(",")[3]))
                .as("the baseline moved items")
                .isPositive();
        assertThat(csv.get(1).split(",")[5])
                .as("endpoint threads' communication time")
                .isEqualTo("0.0");
        assertThat(progress).anyMatch(line -> line.contains("\"payloadBoundViolations\":0"));
        assertThat(report.table()).contains("V6 TPC-H Q1 load balancing", "paper: static 3.2 s");
        assertThat(report.experimentFiles()).containsExactly(out.resolve("zerosided-q1.csv"));
        assertThat(Files.readAllLines(out.resolve("zerosided-q1.csv"))).hasSize(3);
        byte[] png = Files.readAllBytes(report.plotFile());
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertNoWorkerLeft();
    }

    @Test
    void pinnedComputeBoundEndpointsReportTheirUsefulWorkBesideTheItemsMoved(@TempDir Path out) throws Exception {
        // a longer window than tiny's: on a loaded 2-core host a pinned endpoint CPU is shared with everything else
        ZeroSidedBenchConfig config = tiny(out)
                .with(null, null, null, 1.0, null)
                .withExperiments(List.of())
                .withPlacement(true, 100);
        ZeroSidedBenchmark.Report report = new ZeroSidedBenchmark(config, progress::add).run();

        assertThat(report.table()).contains("placement: ", "zero-sided work Mu/s", "(1 driver) work Mu/s");
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv.get(0)).endsWith(",endpoint_work_units_per_second");
        assertThat(csv.subList(1, csv.size())).hasSize(2).allSatisfy(row -> {
            String[] cells = row.split(",");
            assertThat(Double.parseDouble(cells[3])).as("items moved: " + row).isPositive();
            assertThat(Double.parseDouble(cells[7])).as("useful work: " + row).isPositive();
        });
        assertThat(csv.get(1).split(",")[5])
                .as("compute-bound zero-sided endpoints still spend no time on communication")
                .isEqualTo("0.0");
        assertThat(report.experimentFiles()).containsExactly(out.resolve("zerosided-work.png"));
        if (dev.faro.txn.node.CpuAffinity.allowed().size() >= 2) {
            assertThat(progress)
                    .as("the switch's and both NICs' threads were pinned")
                    .anyMatch(line -> line.contains("switch: {\"networkThreadsPinned\":1"));
        }
        assertNoWorkerLeft();
    }

    @Test
    void aConsumerHostThatDiesIsOneLineAndNothingHangs(@TempDir Path out) {
        ZeroSidedBenchConfig config = ZeroSidedBenchConfig.QUICK
                .with(List.of(1), List.of(1), null, 5.0, 1)
                .withOutputDirectory(out);
        ZeroSidedBenchmark[] benchmark = new ZeroSidedBenchmark[1];
        benchmark[0] = new ZeroSidedBenchmark(config, line -> {
            if (line.startsWith("zero-sided, 1 flow(s)")) {
                Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(1500); // inside the timed window
                    } catch (InterruptedException e) {
                        return;
                    }
                    ProcessHandle.of(benchmark[0].workerPids().get(ZeroSidedPointHandler.CONSUMER_NODE))
                            .ifPresent(process -> {
                                process.destroyForcibly();
                                process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                            });
                });
            }
        });
        assertThatThrownBy(benchmark[0]::run)
                .isInstanceOf(FaroException.class)
                .hasMessageStartingWith("zero-sided with 1 flow(s): ")
                .hasMessageContaining("node 2")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertNoWorkerLeft();
        assertThat(out.resolve("zerosided.csv")).doesNotExist();
    }

    private static void assertNoWorkerLeft() {
        assertThat(ProcessHandle.current()
                        .children()
                        .filter(ProcessHandle::isAlive)
                        .filter(child ->
                                child.info().commandLine().orElse("").contains("dev.faro.cluster.worker.WorkerMain")))
                .isEmpty();
    }
}
