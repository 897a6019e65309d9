package dev.faro.bench.kernels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.engine.vector.Batch;
import dev.faro.engine.vector.IntVector;
import dev.faro.engine.vector.LongVector;
import dev.faro.engine.vector.StringVector;
import org.junit.jupiter.api.Test;

/** Each {@link EngineKernelBenchmark} body, run a few times outside JMH: it works and computes what it claims. */
class EngineKernelBenchmarkTest {

    private static final int DAYS_1994_01_01 = 8766;
    private static final int DAYS_1995_01_01 = 9131;

    @Test
    void benchmarkBodiesComputeWhatTheyClaim() {
        EngineKernelBenchmark benchmark = new EngineKernelBenchmark();
        benchmark.buildRows = 57_000;
        benchmark.setUp();
        Batch lines = benchmark.lines;
        long[] partKeys = ((LongVector) lines.column(0)).values();
        long[] discounts = ((LongVector) lines.column(2)).values();
        long[] quantities = ((LongVector) lines.column(3)).values();
        int[] shipDates = ((IntVector) lines.column(4)).values();
        String[] comments = ((StringVector) lines.column(5)).values();
        int q6 = 0;
        int notLike = 0;
        int matches = 0;
        for (int i = 0; i < EngineKernelBenchmark.ROWS; i++) {
            boolean shipped = shipDates[i] >= DAYS_1994_01_01 && shipDates[i] < DAYS_1995_01_01;
            q6 += shipped && discounts[i] >= 5 && discounts[i] <= 7 && quantities[i] < 2400 ? 1 : 0;
            notLike += comments[i].matches(".*special.*requests.*") ? 0 : 1;
            matches += partKeys[i] <= benchmark.buildRows ? 1 : 0;
        }
        // the claims of the benchmarks' Javadoc: about 2% pass Q6, about 99% the NOT LIKE, half of the probes match
        assertThat(q6).isBetween(EngineKernelBenchmark.ROWS / 100, EngineKernelBenchmark.ROWS / 25);
        assertThat(notLike).isBetween(EngineKernelBenchmark.ROWS * 97 / 100, EngineKernelBenchmark.ROWS - 1);
        assertThat(matches).isBetween(EngineKernelBenchmark.ROWS * 45 / 100, EngineKernelBenchmark.ROWS * 55 / 100);
        for (int run = 0; run < 3; run++) {
            assertThat(benchmark.filterQ6()).isEqualTo(q6);
            assertThat(benchmark.filterNotLike()).isEqualTo(notLike);
            assertThat(benchmark.aggregateOneLongKey()).isTrue();
            Batch joined = benchmark.probeOneLongKey();
            assertThat(joined.rowCount()).isEqualTo(matches);
            assertThat(joined.columns()).hasSize(2);
        }
    }
}
