package dev.faro.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaroException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A process whose fabric dies mid-shuffle (in one JVM: its node closes under the open middleware): every worker of
 * every surviving process, whether it is sending into a full ring or waiting for rows, fails with one clear
 * {@code NETWORK} error naming a peer, within seconds and without hanging; the survivors' close returns promptly.
 * The multi-JVM version with a killed process is {@code MiddlewareBenchmarkIT}'s
 * {@code aProcessKilledMidShuffleFailsEverySurvivorWithOneClearLine} (bench).
 */
class MiddlewareFailureTest {

    @Test
    void everySurvivorFailsWithAClearNetworkErrorAndNoHang() throws Exception {
        MiddlewareConfig config = ShuffleMiddlewareTest.smallRings(3, 2);
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            List<CompletableFuture<Throwable>> survivors = new ArrayList<>();
            for (int process = 0; process < 2; process++) {
                for (int local = 0; local < 2; local++) {
                    MiddlewareWorker worker = cluster.middlewares.get(process).worker(local);
                    boolean sender = local == 0;
                    survivors.add(CompletableFuture.supplyAsync(() -> run(worker, sender), cluster.pool()));
                }
            }
            Thread.sleep(300); // let the shuffle get going; the failure is what is timed, not this
            long killedNs = System.nanoTime();
            cluster.fabrics.get(2).close();
            for (CompletableFuture<Throwable> survivor : survivors) {
                Throwable failure = survivor.get(30, TimeUnit.SECONDS);
                assertThat(failure).isInstanceOf(FaroException.class);
                assertThat(((FaroException) failure).category()).isEqualTo(FaroException.Category.NETWORK);
                assertThat(failure.getMessage()).contains("peer process 2");
            }
            System.out.printf(
                    "[middleware] all survivors failed %d ms after the peer's fabric closed%n",
                    Duration.ofNanos(System.nanoTime() - killedNs).toMillis());
            long closeNs = System.nanoTime();
            cluster.middlewares.get(0).close();
            cluster.middlewares.get(1).close();
            assertThat(Duration.ofNanos(System.nanoTime() - closeNs)).isLessThan(Duration.ofSeconds(10));
        }
    }

    /**
     * The package's claim that a dead peer fails the survivors "even when no data moves": every worker only waits for
     * rows, nothing is ever sent, and the peer's fabric closes.
     */
    @Test
    void aPeerDyingWhileNoDataMovesFailsEveryWaitingWorker() throws Exception {
        MiddlewareConfig config = ShuffleMiddlewareTest.smallRings(3, 1);
        try (MiddlewareCluster cluster = new MiddlewareCluster("shm", config)) {
            List<CompletableFuture<Throwable>> survivors = new ArrayList<>();
            for (int process = 0; process < 2; process++) {
                MiddlewareWorker worker = cluster.middlewares.get(process).worker(0);
                survivors.add(CompletableFuture.supplyAsync(() -> run(worker, false), cluster.pool()));
            }
            Thread.sleep(300); // every worker is waiting in take
            cluster.fabrics.get(2).close();
            for (CompletableFuture<Throwable> survivor : survivors) {
                Throwable failure = survivor.get(30, TimeUnit.SECONDS);
                assertThat(failure).isInstanceOf(FaroException.class);
                assertThat(((FaroException) failure).category()).isEqualTo(FaroException.Category.NETWORK);
                assertThat(failure.getMessage()).contains("peer process 2");
            }
            cluster.middlewares.get(0).close();
            cluster.middlewares.get(1).close();
        }
    }

    /**
     * The NIO baseline notices a peer gone between queries: once process 1's channels close, process 0's idle probe
     * reads their end of stream and the baseline is unusable from then on (so the exchange transport replaces it
     * before the next query instead of failing that query).
     */
    @Test
    void anNioPeerClosedBetweenQueriesMakesTheBaselineUnusable() throws Exception {
        MiddlewareConfig config = ShuffleMiddlewareTest.smallRings(2, 2);
        try (MiddlewareCluster cluster = new MiddlewareCluster("nio", config)) {
            NioShuffle survivor = cluster.nio.get(0);
            assertThat(survivor.probeIdle())
                    .as("usable while every peer is there")
                    .isFalse();
            cluster.nio.get(1).close();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!survivor.probeIdle() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(survivor.unusable())
                    .as("unusable once the peer's channels closed")
                    .isTrue();
        }
    }

    /** A sender sends rows to everyone forever; a receiver waits for an operator nobody ends. */
    private static Throwable run(MiddlewareWorker worker, boolean sender) {
        MemorySegment into = Arena.ofAuto().allocate(64);
        try {
            if (sender) {
                for (long i = 0; ; i++) {
                    worker.sendLong((int) (i % worker.workers()), 0, i);
                }
            }
            while (worker.take(1, into) != MiddlewareWorker.END) {
                // nothing is sent on operator 1
            }
            return new AssertionError("operator 1 ended although process 2 never ended it");
        } catch (Throwable failure) {
            return failure;
        }
    }
}
