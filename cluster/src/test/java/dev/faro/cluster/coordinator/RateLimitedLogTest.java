package dev.faro.cluster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One line per kind per period, with a count of the left-out ones; peer text sanitised. A manual clock. */
class RateLimitedLogTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final AtomicLong nowNanos = new AtomicLong(1_000);
    private final RateLimitedLog log = new RateLimitedLog(
            new PrintStream(bytes, true, StandardCharsets.UTF_8), Duration.ofSeconds(10), nowNanos::get);

    private List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void aFloodOfOneKindIsOneLinePerPeriodWithTheCountOfTheRest() {
        for (int i = 0; i < 100; i++) {
            log.log("refused", "refused a connection: ", "bad " + i);
        }
        assertThat(lines()).containsExactly("faro coordinator: refused a connection: bad 0");

        nowNanos.addAndGet(Duration.ofSeconds(10).toNanos());
        log.log("refused", "refused a connection: ", "bad again");

        assertThat(lines())
                .containsExactly(
                        "faro coordinator: refused a connection: bad 0",
                        "faro coordinator: refused a connection: bad again (99 more like it since the last such line, not"
                                + " shown)");
    }

    @Test
    void kindsAreLimitedSeparately() {
        assertThat(log.log("refused", "refused", null)).isTrue();
        assertThat(log.log("cap", "closed at once", null)).isTrue();
        assertThat(log.log("refused", "refused", null)).isFalse();
        assertThat(lines()).hasSize(2);
    }

    @Test
    void peerTextCannotAddLines() {
        log.log("failed", "failed: ", "junk\nfaro coordinator: Q1 OK\u001b[0m");

        assertThat(lines()).containsExactly("faro coordinator: failed: junk\\nfaro coordinator: Q1 OK\\x1b[0m");
    }
}
