package dev.faro.bench.shuffle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RelayedPeerExchangeTest {

    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    @Test
    void postsAGatherEventAndReturnsWhatTheCoordinatorDelivers() throws Exception {
        RelayedPeerExchange exchange = new RelayedPeerExchange(1, 3, Duration.ofSeconds(10), events::add);
        CompletableFuture<byte[][]> gathered =
                CompletableFuture.supplyAsync(() -> exchange.allGather("case-1/keys", new byte[] {0x0a, 0x1b}));

        assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("GATHER case-1/keys 0a1b");
        exchange.deliver("case-1/keys", List.of("01", "0a1b", "-"));

        byte[][] all = gathered.get(10, TimeUnit.SECONDS);
        assertThat(all[0]).containsExactly(1);
        assertThat(all[1]).containsExactly(0x0a, 0x1b);
        assertThat(all[2]).isEmpty();
    }

    @Test
    void anEmptyValueTravelsAsADash() throws Exception {
        RelayedPeerExchange exchange = new RelayedPeerExchange(0, 1, Duration.ofSeconds(10), events::add);
        CompletableFuture<byte[][]> gathered =
                CompletableFuture.supplyAsync(() -> exchange.allGather("k", new byte[0]));
        assertThat(events.poll(10, TimeUnit.SECONDS)).isEqualTo("GATHER k -");
        exchange.deliver("k", List.of("-"));
        assertThat(gathered.get(10, TimeUnit.SECONDS)[0]).isEmpty();
    }

    @Test
    void abandoningFailsThePendingAndEveryLaterExchangeWithNetwork() throws Exception {
        RelayedPeerExchange exchange = new RelayedPeerExchange(0, 2, Duration.ofSeconds(10), events::add);
        CompletableFuture<byte[][]> gathered = CompletableFuture.supplyAsync(() -> exchange.allGather("k", new byte[1]));
        events.poll(10, TimeUnit.SECONDS);

        exchange.abandon("node 1 failed: boom");

        assertThatThrownBy(() -> gathered.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(FaroException.class)
                .cause().hasMessage("node 0: exchange 'k' abandoned by the coordinator: node 1 failed: boom")
                .satisfies(e -> assertThat(((FaroException) e).category()).isEqualTo(FaroException.Category.NETWORK));
        assertThatThrownBy(() -> exchange.allGather("later", new byte[1])).isInstanceOf(FaroException.class);
    }

    @Test
    void noAnswerWithinTheTimeoutIsATimeout() {
        RelayedPeerExchange exchange = new RelayedPeerExchange(0, 2, Duration.ofMillis(50), events::add);
        assertThatThrownBy(() -> exchange.allGather("k", new byte[1])).isInstanceOf(FaroException.class)
                .hasMessageContaining("got no answer from the coordinator")
                .satisfies(e -> assertThat(((FaroException) e).category()).isEqualTo(FaroException.Category.TIMEOUT));
    }

    @Test
    void anAnswerForAnotherExchangeIsRejected() {
        RelayedPeerExchange exchange = new RelayedPeerExchange(0, 2, Duration.ofSeconds(1), events::add);
        assertThatThrownBy(() -> exchange.deliver("k", List.of("-", "-"))).isInstanceOf(IllegalStateException.class);
    }
}
