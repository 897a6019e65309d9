package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.bench.process.WorkerFailedException;
import java.io.IOException;
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
        FabricBenchmark benchmark = new FabricBenchmark(config, line -> {
            if (line.startsWith("[1/")) {
                killWorker(FabricBenchmark.TARGET);
            }
        });
        assertThatThrownBy(benchmark::run)
                .isInstanceOf(WorkerFailedException.class)
                .hasMessageStartingWith("worker 'target' (pid ")
                .hasMessageContaining("died while running PREPARE")
                .hasMessageContaining("killed by signal 9");
        assertNoWorkerLeft();
        assertThat(out.resolve("fabric-shm.csv")).doesNotExist();
    }

    private static void killWorker(String name) {
        ProcessHandle.current()
                .children()
                .filter(child -> child.info()
                        .arguments()
                        .map(arguments -> List.of(arguments).contains(name))
                        .orElse(false))
                .forEach(child -> {
                    child.destroyForcibly();
                    child.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                });
    }

    private static void assertNoWorkerLeft() {
        assertThat(ProcessHandle.current()
                        .children()
                        .filter(ProcessHandle::isAlive)
                        .filter(child ->
                                child.info().commandLine().orElse("").contains(FabricBenchWorker.class.getName())))
                .isEmpty();
    }
}
