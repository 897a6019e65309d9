package dev.faro.bench.hyper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.netns.NetworkNamespaces;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench hyper --experiments v4-netns} in small: three worker JVMs in network namespaces, links capped and
 * not, each schedule once with a few 64 KiB messages. Both schedules complete in both settings, with exactly-once
 * delivery (the benchmark checks every run: what each node sent to each other node arrived there, nothing twice),
 * round-robin runs in phases, and the namespaces are gone afterwards. Never asserts speed. Needs root, {@code ip} and
 * {@code tc}: skipped with one loud line elsewhere, failed under {@code FARO_REQUIRE=netns}.
 */
@Requires(Requirement.NETNS)
class HyperNamespaceScheduleBenchmarkIT {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES) // a hang guard only
    void bothSchedulesDeliverExactlyOnceWithAndWithoutCaps(@TempDir Path out) throws Exception {
        HyperNamespaceScheduleBenchmark.Report report = new HyperNamespaceScheduleBenchmark(
                        List.of(3), 12, 64 * 1024, 8, 200, 64 * 1024, 1, out, System.out::println)
                .run();
        System.out.print(report.table());
        List<String> csv = Files.readAllLines(report.csvFile());
        assertThat(csv).hasSize(1 + 2);
        assertThat(csv.get(1)).startsWith("3,200 Mbit/s");
        assertThat(csv.get(2)).startsWith("3,none");
        for (String line : csv.subList(1, csv.size())) {
            String[] cells = line.split(",");
            assertThat(Double.parseDouble(cells[2])).as("all-to-all MiB/s").isPositive();
            assertThat(Double.parseDouble(cells[3])).as("round-robin MiB/s").isPositive();
            assertThat(Long.parseLong(cells[8])).as("round-robin phases").isPositive();
        }
        byte[] png = Files.readAllBytes(report.plotFile());
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        assertThat(NetworkNamespaces.run(List.of("ip", "netns", "list")))
                .as("namespaces left behind")
                .doesNotContain(NetworkNamespaces.namespace(""));
    }
}
