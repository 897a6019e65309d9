package dev.faro.bench.middleware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench middleware}'s body on real worker JVMs over shm, with tiny settings: every point's rows are
 * checked by the benchmark itself, the tables carry the paper's column, the files are written; and a process killed
 * mid-shuffle fails every survivor with a clear one-line NETWORK error naming it, without a hang. Never asserts
 * speed.
 */
class MiddlewareBenchmarkIT {

    private static MiddlewareBenchmarkConfig tiny(Path out, List<String> experiments, long rows) {
        MiddlewareBenchmarkConfig quick = MiddlewareBenchmarkConfig.quick();
        return quick.with("shm", experiments, List.of(3), List.of(1, 2), rows, 1, out);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
    void v1AndV2ProduceTablesWithThePapersNumbersAndFiles(@TempDir Path out) throws Exception {
        MiddlewareReport report =
                new MiddlewareBenchmark(tiny(out, List.of("v1", "v2"), 20_000), null, line -> {}).run();
        assertThat(report.text()).contains("V1 (Fig. 3)", "best vs best", MiddlewareReport.PAPER_V1, "V2 (Fig. 4)");
        assertThat(report.text()).contains("m-1 = 2 vs n*n*(m-1) = 8");
        assertThat(Files.readAllLines(out.resolve("middleware-v1.csv"))).hasSize(1 + 4);
        assertThat(Files.readAllLines(out.resolve("middleware-v2.csv"))).hasSize(1 + 6);
        byte[] png = Files.readAllBytes(out.resolve("middleware-v1.png"));
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
    void aProcessKilledMidShuffleFailsEverySurvivorWithOneClearLine(@TempDir Path out) {
        MiddlewareBenchmarkConfig config = MiddlewareBenchmarkConfig.quick()
                .with("shm", List.of("v1"), List.of(3), List.of(1), 400_000_000, 1, out);
        MiddlewareBenchmark[] benchmark = new MiddlewareBenchmark[1];
        AtomicBoolean killed = new AtomicBoolean();
        benchmark[0] = new MiddlewareBenchmark(config, null, line -> {
            if (line.startsWith("bench middleware: fabric") && killed.compareAndSet(false, true)) {
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        Thread.sleep(3_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    long victim = benchmark[0].workerPids().get(2);
                    ProcessHandle.of(victim).ifPresent(process -> {
                        process.destroyForcibly();
                        process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                    });
                });
            }
        });
        benchmark[0].onlyTransports(List.of(MiddlewareCase.FABRIC));
        assertThatThrownBy(benchmark[0]::run)
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("process 2")
                .satisfies(e -> System.out.println("[middleware kill] " + e.getMessage()))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        List<String> failures = benchmark[0].nodeFailures();
        System.out.println("[middleware kill] every node: " + failures);
        // the runtime sees the death first and cancels the survivors' tasks; each ends (no hang) and says so. The
        // middleware's own detection (every survivor: NETWORK naming the peer) is MiddlewareFailureTest's.
        assertThat(failures).anyMatch(line -> line.startsWith("node 2: ") && line.contains("died"));
        assertThat(failures).anyMatch(line -> line.startsWith("node 0: "));
        assertThat(failures).anyMatch(line -> line.startsWith("node 1: "));
    }
}
