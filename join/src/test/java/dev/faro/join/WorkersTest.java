package dev.faro.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Workers}: every thread runs its part, failures surface, and the bodies' CPU time is summed. */
class WorkersTest {

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 3})
    void returnsTheCpuTimeOfEveryThreadsBody(int threads) {
        AtomicLong sink = new AtomicLong();
        long[] own = new long[threads];
        long cpu = Workers.run("test", threads, t -> {
            long start = Workers.cpuNanos();
            long x = t;
            for (int i = 0; i < 2_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink.addAndGet(x);
            own[t] = Workers.cpuNanos() - start;
        });
        long sum = 0;
        for (long nanos : own) {
            assertThat(nanos).isPositive();
            sum += nanos;
        }
        // each thread's measurement sits inside the one Workers takes around its body
        assertThat(cpu).isGreaterThanOrEqualTo(sum);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2})
    void rethrowsTheFirstFailure(int threads) {
        assertThatThrownBy(() -> Workers.run("test", threads, t -> {
                    throw new IllegalArgumentException("boom " + t);
                }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("boom");
    }
}
