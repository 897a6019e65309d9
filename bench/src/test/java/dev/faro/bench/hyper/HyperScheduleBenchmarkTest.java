package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench hyper --experiments v4}'s body once, small: every shuffle delivers every byte (the round checks
 * it), round-robin runs phases and all-to-all none, and both models are reported. No figure is asserted.
 */
class HyperScheduleBenchmarkTest {

    @Test
    void bothSchedulesWithAndWithoutTheContentionModel(@TempDir Path out) throws Exception {
        List<String> progress = new ArrayList<>();
        HyperScheduleBenchmark.Report report = new HyperScheduleBenchmark(
                        List.of(3), 12, 64 * 1024, 8, 2, 64L << 20, 16 * 1024, 1, out, progress::add)
                .run();
        List<String> lines = Files.readAllLines(report.csvFile());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).startsWith("3,\"64 MiB/s, buffer 16 KiB\",");
        assertThat(lines.get(2)).startsWith("3,none (loopback),");
        assertThat(report.table()).contains("round-robin / all-to-all");
        assertThat(report.plotFile()).exists();
        assertThat(progress).hasSize(2);
    }

    @Test
    void aRoundDeliversEveryByteAndRoundRobinSwitchesPhasesWithOneMessagePostedPerPeer() throws Exception {
        var config = dev.faro.hyper.HyperConfig.defaults()
                .withMessageBytes(64 * 1024)
                .withSchedule(dev.faro.hyper.NetworkSchedule.ROUND_ROBIN)
                .withPostedPerPeer(1);
        try (InProcessHyperCluster cluster = new InProcessHyperCluster(
                "hyper-v4-test", 4, config, java.util.Map.of("shm.port-bandwidth", "64m"), message -> {})) {
            ShuffleRound.Result result = new ShuffleRound(cluster, "x", 24).run();
            assertThat(result.payloadBytesPerNode()).isEqualTo(24L * (64 * 1024 - 32));
            assertThat(result.phases()).as("phases per node").isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void badParametersAreRefused(@TempDir Path out) {
        assertThatThrownBy(() -> new HyperScheduleBenchmark(List.of(9), 1, 512 * 1024, 8, 2, 1, 1, 1, out, m -> {}))
                .hasMessageContaining("node counts must be in [2, 8]");
        assertThatThrownBy(() -> new HyperScheduleBenchmark(List.of(2), 0, 512 * 1024, 8, 2, 1, 1, 1, out, m -> {}))
                .hasMessageContaining("must be positive");
    }
}
