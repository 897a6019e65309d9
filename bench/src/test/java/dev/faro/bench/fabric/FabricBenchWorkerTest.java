package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drives two {@link FabricBenchWorker}s through the whole protocol in one JVM (the shm provider allows several
 * nodes per JVM), without processes: every operation yields samples, and credit keeps every SEND matched.
 */
class FabricBenchWorkerTest {

    private static final long RUN_NANOS = 5_000_000;

    private static String[] words(String reply) {
        return reply.split(" ");
    }

    @Test
    void everyOperationMeasuresAndCreditPreventsDropsAndRetries() throws Exception {
        try (FabricBenchWorker initiator = new FabricBenchWorker("test-initiator");
                FabricBenchWorker target = new FabricBenchWorker("test-target")) {
            List<String> open = List.of("shm", Long.toString(1 << 20), "8");
            String[] initiatorNode = words(initiator.onCommand(FabricBenchWorker.OPEN, open));
            String[] targetNode = words(target.onCommand(FabricBenchWorker.OPEN, open));
            assertThat(initiatorNode).hasSize(4);
            assertThat(Integer.parseInt(initiatorNode[2])).isEqualTo(4096);
            initiator.onCommand(FabricBenchWorker.PEER, List.of(targetNode[0], targetNode[1]));
            target.onCommand(FabricBenchWorker.PEER, List.of(initiatorNode[0], initiatorNode[1]));

            for (FabricOperation operation : FabricOperation.values()) {
                for (int size : new int[] {64, 4096}) {
                    List<String> prepare = List.of(operation.cliName(), Integer.toString(size));
                    String[] initiatorQueuePairs = words(initiator.onCommand(FabricBenchWorker.PREPARE, prepare));
                    String[] targetQueuePairs = words(target.onCommand(FabricBenchWorker.PREPARE, prepare));
                    assertThat(targetQueuePairs[1].equals(FabricBenchWorker.NONE))
                            .isEqualTo(!operation.isUd());
                    initiator.onCommand(FabricBenchWorker.CONNECT, List.of(targetQueuePairs));
                    target.onCommand(FabricBenchWorker.CONNECT, List.of(initiatorQueuePairs));
                    if (operation.isTwoSided()) {
                        target.onCommand(FabricBenchWorker.SERVE, List.of());
                    }
                    String[] measured = words(initiator.onCommand(
                            FabricBenchWorker.MEASURE,
                            List.of("2", Long.toString(RUN_NANOS), Long.toString(RUN_NANOS / 5))));
                    assertThat(measured).hasSize(3);
                    assertThat(measured[0])
                            .as("receiver-not-ready retries of %s", operation)
                            .isEqualTo("0");
                    List<RunSample> samples = new ArrayList<>();
                    for (int i = 1; i < measured.length; i++) {
                        samples.add(RunSample.decode(measured[i]));
                    }
                    for (RunSample sample : samples) {
                        assertThat(sample.operation().messages())
                                .as("%s %d B", operation, size)
                                .isPositive();
                        assertThat(sample.operation().bytes())
                                .isEqualTo(sample.operation().messages() * size);
                        assertThat(sample.memcpy().bytes()).isPositive();
                    }
                    if (operation.isTwoSided()) {
                        String[] statistics = words(target.onCommand(FabricBenchWorker.STOP, List.of()));
                        assertThat(Long.parseLong(statistics[0]))
                                .as("receives completed")
                                .isPositive();
                        assertThat(Long.parseLong(statistics[1]))
                                .as("credit writes")
                                .isPositive();
                        assertThat(statistics[2]).as("UD drops").isEqualTo("0");
                    }
                    initiator.onCommand(FabricBenchWorker.FINISH, List.of());
                    target.onCommand(FabricBenchWorker.FINISH, List.of());
                }
            }
        }
    }

    @Test
    void commandsOutOfOrderAreClearErrors() {
        try (FabricBenchWorker worker = new FabricBenchWorker("lonely")) {
            assertThatThrownBy(() -> worker.onCommand(FabricBenchWorker.PREPARE, List.of("write", "64")))
                    .hasMessageContaining("lonely")
                    .hasMessageContaining("no PEER");
            assertThatThrownBy(() -> worker.onCommand("JUMP", List.of())).hasMessageContaining("unknown command JUMP");
            assertThatThrownBy(() -> worker.onCommand(FabricBenchWorker.OPEN, List.of("shm")))
                    .hasMessageContaining("OPEN takes 3 arguments");
        }
    }
}
