package dev.faro.bench.micro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.shuffle.endpoint.EndpointDesign;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Each JMH benchmark's body, run a few times outside JMH: it works and moves what it claims to move. */
class MicroBenchmarksTest {

    @ParameterizedTest
    @CsvSource({"1, native", "2, native", "4, native", "8, native", "2, mixed", "8, mixed"})
    void partitionAndCopyFillsAndSendsBuffers(int groups, String segments) {
        PartitionCopyBenchmark benchmark = new PartitionCopyBenchmark();
        benchmark.groups = groups;
        benchmark.segments = segments;
        benchmark.setUp();
        try {
            long sent = 0;
            for (int i = 0; i < 200; i++) {
                sent = benchmark.partitionAndCopy();
            }
            // 200 vectors of 1,024 16-byte tuples; all but the open buffers' contents have gone out
            assertThat(sent).isPositive().isLessThanOrEqualTo(200L * 1024 * 16);
            assertThat(sent % 16).isZero();
        } finally {
            benchmark.tearDown();
        }
    }

    @org.junit.jupiter.api.Test
    void copyOutFillsTheVector() {
        ReceiveCopyBenchmark benchmark = new ReceiveCopyBenchmark();
        benchmark.setUp();
        try {
            for (int i = 0; i < 100; i++) {
                assertThat(benchmark.copyOut()).isEqualTo(ReceiveCopyBenchmark.VECTOR);
                assertThat(benchmark.consumeInPlace()).isNotZero();
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(EndpointDesign.class)
    void messageCycleDeliversAFullOrAnEmptyBuffer(EndpointDesign design) throws Exception {
        for (String payload : new String[] {"full", "empty"}) {
            MessageCycleBenchmark benchmark = new MessageCycleBenchmark();
            benchmark.design = design;
            benchmark.payload = payload;
            benchmark.setUp();
            try {
                for (int i = 0; i < 100; i++) {
                    int bytes = benchmark.cycle();
                    assertThat(payload.equals("full") ? bytes > 4000 : bytes == 0)
                            .as("%s payload: %d bytes", payload, bytes)
                            .isTrue();
                }
            } finally {
                benchmark.tearDown();
            }
        }
    }
}
