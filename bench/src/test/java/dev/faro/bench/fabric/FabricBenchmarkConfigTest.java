package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FabricBenchmarkConfigTest {

    @Test
    void defaultsCoverEveryOperationFrom64BytesTo1MiB() {
        FabricBenchmarkConfig config = FabricBenchmarkConfig.defaults();
        assertThat(config.operations()).containsExactly(FabricOperation.values());
        assertThat(config.sizesBytes()).first().isEqualTo(64);
        assertThat(config.sizesBytes()).last().isEqualTo(1 << 20);
        assertThat(config.runs()).isEqualTo(5);
    }

    @Test
    void sortsSizesAndDropsDuplicates() {
        FabricBenchmarkConfig config = FabricBenchmarkConfig.quick()
                .withSizes(List.of(4096, 64, 4096))
                .withOperations(List.of(FabricOperation.READ, FabricOperation.WRITE, FabricOperation.READ));
        assertThat(config.sizesBytes()).containsExactly(64, 4096);
        assertThat(config.operations()).containsExactly(FabricOperation.READ, FabricOperation.WRITE);
    }

    @Test
    void rejectsWhatCannotBeMeasured() {
        FabricBenchmarkConfig config = FabricBenchmarkConfig.defaults();
        assertThatThrownBy(() -> config.withSizes(List.of())).hasMessageContaining("at least one size");
        assertThatThrownBy(() -> config.withRuns(0)).hasMessageContaining("runs");
        assertThatThrownBy(() -> config.withRunDuration(Duration.ZERO)).hasMessageContaining("time per point");
        assertThatThrownBy(() -> config.withWindow(0)).hasMessageContaining("window");
        assertThatThrownBy(() -> config.withWorkingSetBytes(1 << 20).withSizes(List.of(2 << 20)))
                .hasMessageContaining("exceeds the working set");
    }

    @Test
    void operationsParseFromTheirCommandLineNames() {
        assertThat(FabricOperation.fromCliName("rc-send")).isEqualTo(FabricOperation.RC_SEND);
        assertThat(FabricOperation.fromCliName("UD-SEND")).isEqualTo(FabricOperation.UD_SEND);
        assertThatThrownBy(() -> FabricOperation.fromCliName("atomic"))
                .hasMessage("unknown operation 'atomic'; known: write, read, rc-send, ud-send");
    }
}
