package dev.faro.fabric.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One line per interval, the next one counting what was held back; every refusal counted. */
class RefusalLogTest {

    @Test
    void aBurstOfRefusalsGivesOneLineAndTheNextLineCountsTheRest() {
        AtomicLong clock = new AtomicLong(1_000);
        List<String> lines = new ArrayList<>();
        RefusalLog log = new RefusalLog(Duration.ofSeconds(10), clock::get, lines::add);

        for (int i = 0; i < 100; i++) {
            log.refused("refused a connection from /127.0.0.1:" + (40_000 + i));
            clock.addAndGet(Duration.ofMillis(10).toNanos());
        }
        assertThat(lines).containsExactly("refused a connection from /127.0.0.1:40000");

        clock.addAndGet(Duration.ofSeconds(10).toNanos());
        log.refused("refused another");
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).isEqualTo("refused another (99 more like it since the last such line, not shown)");
        assertThat(log.refusals()).isEqualTo(101);
    }
}
