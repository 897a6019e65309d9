package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the benchmark body once with tiny settings between two real worker JVMs on shm. Asserts that every point
 * produced numbers and files; never asserts speed.
 */
class FabricBenchmarkIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    private static FabricBenchmarkConfig tiny(Path out) {
        return FabricBenchmarkConfig.quick()
                .withSizes(List.of(64, 4096))
                .withRuns(2)
                .withRunDuration(Duration.ofMillis(20))
                .withWindow(8)
                .withWorkingSetBytes(1 << 20)
                .withOutputDirectory(out);
    }

    @Test
    void everyPointProducesPositiveNumbersAndTheFilesAreWritten(@TempDir Path out) throws IOException {
        FabricBenchmarkReport report = new FabricBenchmark(tiny(out), progress::add).run();

        assertThat(report.results()).hasSize(FabricOperation.values().length * 2);
        for (BandwidthResult result : report.results()) {
            assertThat(result.gigabytesPerSecond()).as("%s", result).isPositive();
            assertThat(result.megaMessagesPerSecond()).as("%s", result).isPositive();
            assertThat(result.memcpyGigabytesPerSecond()).as("%s", result).isPositive();
            assertThat(result.runs()).isEqualTo(2);
            // credit keeps every SEND matched with a posted receive
            assertThat(result.counters().udDrops()).as("%s", result).isZero();
            assertThat(result.counters().receiverNotReadyRetries())
                    .as("%s", result)
                    .isZero();
            if (result.operation().isTwoSided()) {
                assertThat(result.counters().receivesCompleted())
                        .as("%s", result)
                        .isPositive();
            }
        }

        assertThat(report.csvFile()).isEqualTo(out.resolve("fabric-shm.csv"));
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + report.results().size());
        assertThat(csv.get(0)).startsWith("provider,operation,size_bytes,gbps,mmsgps,memcpy_gbps,ratio_to_memcpy");
        assertThat(csv.get(1)).startsWith("shm,write,64,");
        assertThat(Files.readString(report.metadataFile()))
                .contains("\"provider\": \"shm\"")
                .contains("\"cores\"");
        byte[] png = Files.readAllBytes(report.plotFile());
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");

        assertThat(report.table()).contains("RC WRITE", "RC READ", "RC SEND", "UD SEND", "memcpy GB/s", "ratio");
        assertThat(progress).anyMatch(line -> line.startsWith("[8/8] UD SEND"));
        assertNoWorkerLeft();
    }

    @Test
    void aWorkerThatDiesIsNamedAndNoWorkerIsLeftBehind(@TempDir Path out) {
        FabricBenchmarkConfig config = tiny(out).withOperations(List.of(FabricOperation.WRITE));
        FabricBenchmark[] benchmark = new FabricBenchmark[1];
        benchmark[0] = new FabricBenchmark(config, line -> {
            if (line.startsWith("[1/")) {
                long target = benchmark[0].workerPids().get(1);
                ProcessHandle.of(target).ifPresent(process -> {
                    process.destroyForcibly();
                    process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                });
            }
        });
        assertThatThrownBy(benchmark[0]::run)
                .isInstanceOf(FaroException.class)
                .hasMessageStartingWith("worker 'target' ")
                .hasMessageContaining("node 1")
                .hasMessageContaining("died")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertNoWorkerLeft();
        assertThat(out.resolve("fabric-shm.csv")).doesNotExist();
    }

    @Test
    void somethingNotInstalledIsOneLineWithoutTheWorkersStackTrace(@TempDir Path out) {
        // the fabric opens on the worker: a provider whose library is missing fails OPEN there, with its one line
        FabricBenchmarkConfig config = tiny(out).withProvider(AbsentFabricProvider.NAME);
        PrintStream stderr = System.err;
        ByteArrayOutputStream workerOutput = new ByteArrayOutputStream();
        System.setErr(new PrintStream(workerOutput, true, StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> new FabricBenchmark(config, progress::add).run())
                    .isInstanceOf(FaroException.class)
                    .hasMessageStartingWith("worker 'initiator' failed OPEN: ")
                    .hasMessageEndingWith(AbsentFabricProvider.MESSAGE)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        } finally {
            System.setErr(stderr);
        }
        String forwarded = workerOutput.toString(StandardCharsets.UTF_8);
        assertThat(forwarded)
                .doesNotContain("\tat ")
                .doesNotContain("Exception")
                .doesNotContain("faro-logs");
        assertNoWorkerLeft();
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
