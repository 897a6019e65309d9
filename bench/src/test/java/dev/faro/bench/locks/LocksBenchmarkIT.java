package dev.faro.bench.locks;

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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench locks}' body between two real worker JVMs on shm, with tiny settings: every point produces
 * numbers, the tables carry the thesis's columns, the files are written; and a worker killed during the load ends the
 * run with one line naming it, without a hang. Never asserts speed.
 */
class LocksBenchmarkIT {

    private final List<String> progress = new CopyOnWriteArrayList<>();

    private static LocksBenchmarkConfig tiny(Path out) {
        return LocksBenchmarkConfig.quick()
                .withExperiments(List.of("remote", "isolation", "contention"))
                .withRemote(List.of(0.0, 50.0))
                .withTiming(50, 300, 1)
                .withOutputDirectory(out);
    }

    @Test
    void everyPointProducesNumbersBesideThePapers(@TempDir Path out) throws Exception {
        LocksReport report = new LocksBenchmark(tiny(out), null, progress::add).run();

        assertThat(report.text())
                .contains("paper M tx/s", "model t_tx us", "RC / serializable", "2PC vote", "mailbox ping");
        List<String> remote = Files.readAllLines(out.resolve("locks-remote.csv"));
        assertThat(remote).hasSize(1 + 2 + 2); // header, two points, the model's terms and the sweep's own
        assertThat(remote.get(0)).startsWith("remote %,tx/s,");
        assertThat(remote.get(3)).startsWith("model,t_local ");
        assertThat(remote.get(4)).startsWith("sweep's own,t_local ");
        List<String> isolation = Files.readAllLines(out.resolve("locks-isolation.csv"));
        assertThat(isolation).hasSize(1 + 2 + 1);
        byte[] png = Files.readAllBytes(out.resolve("locks-remote.png"));
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(Files.readString(out.resolve("locks.json"))).contains("\"experiment\": \"locks\"");
        assertThat(progress).anyMatch(line -> line.contains("TPC-C read committed"));

        // contention: hot locks make requests wait in the waiting groups, and the breakdown shows it
        assertThat(report.text()).contains("Latency breakdown under contention", "50% hot");
        List<String> contention = Files.readAllLines(out.resolve("locks-contention.csv"));
        assertThat(contention).hasSize(1 + LocksBenchmarkConfig.HOT_PERCENTS.size());
        int queued = List.of(contention.get(0).split(",")).indexOf("queuedNs");
        assertThat(Long.parseLong(contention.getLast().split(",")[queued]))
                .as("queue time at the most contended point")
                .isPositive();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
    void aWorkerKilledDuringTheLoadIsOneLineNotAHang(@TempDir Path out) {
        LocksBenchmarkConfig config = tiny(out)
                .withExperiments(List.of("remote"))
                .withRemote(List.of(50.0))
                .withTiming(0, 30_000, 1);
        LocksBenchmark[] benchmark = new LocksBenchmark[1];
        benchmark[0] = new LocksBenchmark(config, null, line -> {
            if (line.startsWith("bench locks:")) {
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        Thread.sleep(3_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    long victim = benchmark[0].workerPids().get(1);
                    ProcessHandle.of(victim).ifPresent(process -> {
                        process.destroyForcibly();
                        process.onExit().orTimeout(10, TimeUnit.SECONDS).join();
                    });
                });
            }
        });
        // Without the kill the run would end normally after its 30 s; it must fail instead, naming the node.
        assertThatThrownBy(benchmark[0]::run)
                .isInstanceOf(FaroException.class)
                .hasMessageContaining("node 1")
                .satisfies(e -> System.out.println("[locks kill] " + e.getMessage()))
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
