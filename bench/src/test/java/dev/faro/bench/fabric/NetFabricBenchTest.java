package dev.faro.bench.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code faro bench fabric} on the {@code net} provider, without processes: two workers in this JVM (net nodes on
 * loopback, sharing the secret the coordinator hands them in OPEN) measure RC WRITE and RC SEND, the plain socket
 * stream runs between them, and the table puts the socket stream beside the RC points of its size.
 */
class NetFabricBenchTest {

    private static final long RUN_NANOS = 5_000_000;
    private static final int SIZE = 64 << 10;

    private static String[] words(String reply) {
        return reply.split(" ");
    }

    @Test
    void netWorkersMeasureRcWriteAndSendAndTheSocketStreamBesideThem() throws Exception {
        try (FabricBenchWorker initiator = new FabricBenchWorker("net-initiator");
                FabricBenchWorker target = new FabricBenchWorker("net-target")) {
            List<String> open = List.of("net", Long.toString(4 << 20), "8", "net.secret=bench-test-secret");
            String[] initiatorNode = words(initiator.onCommand(FabricBenchWorker.OPEN, open));
            String[] targetNode = words(target.onCommand(FabricBenchWorker.OPEN, open));
            initiator.onCommand(FabricBenchWorker.PEER, List.of(targetNode[0], targetNode[1]));
            target.onCommand(FabricBenchWorker.PEER, List.of(initiatorNode[0], initiatorNode[1]));

            for (FabricOperation operation : List.of(FabricOperation.WRITE, FabricOperation.RC_SEND)) {
                List<String> prepare = List.of(operation.cliName(), Integer.toString(SIZE));
                String[] initiatorQueuePairs = words(initiator.onCommand(FabricBenchWorker.PREPARE, prepare));
                String[] targetQueuePairs = words(target.onCommand(FabricBenchWorker.PREPARE, prepare));
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
                for (int i = 1; i < measured.length; i++) {
                    Measurement run = RunSample.decode(measured[i]).operation();
                    assertThat(run.messages()).as("%s", operation).isPositive();
                    assertThat(run.bytes()).isEqualTo(run.messages() * SIZE);
                }
                if (operation.isTwoSided()) {
                    assertThat(Long.parseLong(words(target.onCommand(FabricBenchWorker.STOP, List.of()))[0]))
                            .as("receives completed")
                            .isPositive();
                }
                initiator.onCommand(FabricBenchWorker.FINISH, List.of());
                target.onCommand(FabricBenchWorker.FINISH, List.of());
            }

            String port = target.onCommand(FabricBenchWorker.SOCKET_SERVE, List.of(Integer.toString(SIZE)));
            String[] samples = words(initiator.onCommand(
                    FabricBenchWorker.SOCKET_MEASURE,
                    List.of(
                            port,
                            Integer.toString(SIZE),
                            "2",
                            Long.toString(RUN_NANOS),
                            Long.toString(RUN_NANOS / 5))));
            target.onCommand(FabricBenchWorker.SOCKET_STOP, List.of());
            assertThat(samples).hasSize(2);
            List<Measurement> runs = new ArrayList<>();
            for (String sample : samples) {
                Measurement run = Measurement.decode(sample);
                assertThat(run.messages()).isPositive();
                assertThat(run.bytes())
                        .as("whole chunks, the end marker included")
                        .isEqualTo(run.messages() * SIZE);
                runs.add(run);
            }
            assertThat(SocketStreamResult.of(FabricOperation.WRITE, SIZE, runs).gigabytesPerSecond())
                    .isPositive();
        }
    }

    @Test
    void theTableAndTheCsvPutTheSocketStreamBesideTheRcPointsOfItsSize() {
        RunSample sample = new RunSample(
                new Measurement(2_000_000, 10, 1_000_000, 1, 0), new Measurement(4_000_000, 10, 1_000_000, 0, 0));
        BandwidthResult write = BandwidthResult.of(FabricOperation.WRITE, SIZE, List.of(sample), 0, 0, 0, 0);
        BandwidthResult small = BandwidthResult.of(FabricOperation.WRITE, 4096, List.of(sample), 0, 0, 0, 0);
        SocketStreamResult socket = SocketStreamResult.of(
                FabricOperation.WRITE, SIZE, List.of(new Measurement(2_500_000, 10, 1_000_000, 0, 0)));

        String table = FabricReport.table(List.of(small, write), List.of(socket));
        assertThat(table).contains("socket GB/s", "vs socket", "2.50", "0.80");
        List<List<String>> rows = FabricReport.csvRows("net", List.of(small, write), List.of(socket));
        assertThat(FabricReport.CSV_HEADER).endsWith("socket_gbps", "ratio_to_socket");
        assertThat(rows.get(0)).endsWith("", "");
        assertThat(rows.get(1)).endsWith("2.5000", "0.8000");
        assertThat(FabricReport.table(List.of(small), List.of())).doesNotContain("socket");
    }
}
