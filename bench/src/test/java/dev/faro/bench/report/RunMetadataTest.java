package dev.faro.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunMetadataTest {

    @Test
    void writesMachineAndParametersAsJson(@TempDir Path directory) throws IOException {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("provider", "shm");
        parameters.put("sizesBytes", List.of(64, 4096));
        parameters.put("note", "quote \" and\nnewline");
        RunMetadata metadata = new RunMetadata(
                "fabric",
                Instant.parse("2026-01-02T03:04:05Z"),
                Duration.ofMillis(1500),
                MachineInfo.collect(),
                parameters);
        Path file = directory.resolve("fabric.json");
        metadata.write(file);

        String json = Files.readString(file);
        assertThat(json)
                .startsWith("{\n  \"experiment\": \"fabric\",")
                .contains("\"startedAt\": \"2026-01-02T03:04:05Z\"")
                .contains("\"elapsedSeconds\": 1.5")
                .contains("\"cores\": " + Runtime.getRuntime().availableProcessors())
                .contains("\"sizesBytes\": [64, 4096]")
                .contains("\"note\": \"quote \\\" and\\nnewline\"")
                .endsWith("}\n");
    }

    @Test
    void describesThisMachine() {
        MachineInfo machine = MachineInfo.collect();
        assertThat(machine.cores()).isPositive();
        assertThat(machine.jdk()).contains(Integer.toString(Runtime.version().feature()));
        assertThat(machine.toMap())
                .containsKeys("hostName", "cores", "memoryBytes", "cpuModel", "operatingSystem", "loadAverage");
    }
}
