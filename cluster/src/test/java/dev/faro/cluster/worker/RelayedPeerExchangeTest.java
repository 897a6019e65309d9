package dev.faro.cluster.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The worker's half of the relayed all-gather, with a fake coordinator (the test thread). */
class RelayedPeerExchangeTest {

    private final List<String> sent = new CopyOnWriteArrayList<>();

    private RelayedPeerExchange exchange(Duration timeout) {
        return new RelayedPeerExchange(1, 2, timeout, (key, value) -> sent.add(key));
    }

    @Test
    void concurrentKeysAreAnsweredIndependently() throws Exception {
        RelayedPeerExchange exchange = exchange(Duration.ofSeconds(30));
        CompletableFuture<byte[][]> a = CompletableFuture.supplyAsync(() -> exchange.allGather("a", new byte[] {1}));
        CompletableFuture<byte[][]> b = CompletableFuture.supplyAsync(() -> exchange.allGather("b", new byte[] {2}));
        awaitSent(2);

        exchange.deliver("b", new byte[][] {{20}, {2}});
        exchange.deliver("a", new byte[][] {{10}, {1}});

        assertThat(a.get(30, TimeUnit.SECONDS)[0]).containsExactly(10);
        assertThat(b.get(30, TimeUnit.SECONDS)[0]).containsExactly(20);
    }

    @Test
    void noAnswerInTimeIsATimeout() {
        RelayedPeerExchange exchange = exchange(Duration.ofMillis(50));

        assertThatThrownBy(() -> exchange.allGather("slow", new byte[0]))
                .isInstanceOfSatisfying(
                        FaroException.class, e -> assertThat(e.category()).isEqualTo(FaroException.Category.TIMEOUT))
                .hasMessageContaining("exchange 'slow'");
    }

    @Test
    void abortFailsPendingAndLaterGathersWithNetwork() throws Exception {
        RelayedPeerExchange exchange = exchange(Duration.ofSeconds(30));
        CompletableFuture<byte[][]> pending =
                CompletableFuture.supplyAsync(() -> exchange.allGather("waiting", new byte[0]));
        awaitSent(1);

        exchange.abort("node 0 died");

        assertThatThrownBy(() -> pending.get(30, TimeUnit.SECONDS))
                .cause()
                .isInstanceOfSatisfying(
                        FaroException.class, e -> assertThat(e.category()).isEqualTo(FaroException.Category.NETWORK))
                .hasMessageContaining("node 0 died");
        assertThatThrownBy(() -> exchange.allGather("later", new byte[0]))
                .isInstanceOfSatisfying(
                        FaroException.class, e -> assertThat(e.category()).isEqualTo(FaroException.Category.NETWORK));
    }

    @Test
    void aKeyMayNotBePendingTwice() throws Exception {
        RelayedPeerExchange exchange = exchange(Duration.ofSeconds(30));
        CompletableFuture.supplyAsync(() -> exchange.allGather("once", new byte[0]));
        awaitSent(1);

        assertThatThrownBy(() -> exchange.allGather("once", new byte[0])).isInstanceOf(IllegalStateException.class);
        exchange.abort("done");
    }

    private void awaitSent(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sent.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(sent).hasSize(count);
    }
}
