package dev.faro.join.rma;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** Puts with per-request completion and flush, notified puts, and a dead peer, on shm and net. */
class RmaLaneTest {

    static final List<String> PROVIDERS = InJvmRanks.PROVIDERS;

    @TempDir
    Path directory;

    @ParameterizedTest
    @FieldSource("PROVIDERS")
    void putsLandAtTheirOffsetsAndCompletePerRequest(String provider) throws Exception {
        int ranks = 3;
        int words = 1024;
        List<long[]> received = InJvmRanks.run(provider, directory, ranks, RmaConfig.of(2, 64), group -> {
            RmaWindow window = group.createWindow((long) ranks * words * Long.BYTES);
            MemoryRegion source = group.registerLocal((long) words * Long.BYTES);
            for (int i = 0; i < words; i++) {
                source.segment().setAtIndex(ValueLayout.JAVA_LONG, i, group.rank() * 1_000_000L + i);
            }
            RmaLane lane = group.lane(1);
            // every rank writes its words into its own sub-range of every rank's window, 128 words per put
            int slot = 0;
            for (int target = 0; target < ranks; target++) {
                for (int chunk = 0; chunk < words; chunk += 128) {
                    long targetOffset = ((long) group.rank() * words + chunk) * Long.BYTES;
                    lane.put(target, window, targetOffset, source, (long) chunk * Long.BYTES, 128 * Long.BYTES, slot);
                    lane.await(slot);
                    assertThat(lane.isComplete(slot)).isTrue();
                    slot = (slot + 1) % 64;
                }
            }
            lane.flush();
            assertThat(lane.outstanding()).isZero();
            group.collectives().barrier();
            long[] copy = new long[ranks * words];
            MemorySegmentCopy.toArray(window, copy);
            return copy;
        });
        for (long[] words1 : received) {
            for (int rank = 0; rank < ranks; rank++) {
                for (int i = 0; i < words; i++) {
                    assertThat(words1[rank * words + i]).isEqualTo(rank * 1_000_000L + i);
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("PROVIDERS")
    void notifiedPutsArriveWithTheirImmediateAndSource(String provider) throws Exception {
        int ranks = 3;
        List<long[]> seen = InJvmRanks.run(provider, directory, ranks, RmaConfig.of(1, 8), group -> {
            RmaWindow mailbox = group.createWindow((long) ranks * Long.BYTES);
            MemoryRegion message = group.registerLocal(Long.BYTES);
            message.segment().set(ValueLayout.JAVA_LONG, 0, 100L + group.rank());
            RmaLane lane = group.lane(0);
            int slot = 0;
            for (int target = 0; target < ranks; target++) {
                if (target != group.rank()) {
                    lane.putNotify(
                            target,
                            mailbox,
                            (long) group.rank() * Long.BYTES,
                            message,
                            0,
                            Long.BYTES,
                            7 + group.rank(),
                            slot++);
                }
            }
            long[] notifications = new long[ranks];
            for (int i = 0; i < ranks - 1; i++) {
                long notification = lane.awaitNotification();
                int from = (int) (notification >>> 32);
                int immediate = (int) notification;
                assertThat(immediate).isEqualTo(7 + from);
                // the bytes are in place when the notification is seen
                notifications[from] = mailbox.segment().get(ValueLayout.JAVA_LONG, (long) from * Long.BYTES);
            }
            lane.flush();
            return notifications;
        });
        for (int rank = 0; rank < ranks; rank++) {
            for (int from = 0; from < ranks; from++) {
                assertThat(seen.get(rank)[from]).isEqualTo(from == rank ? 0 : 100L + from);
            }
        }
    }

    @ParameterizedTest
    @FieldSource("PROVIDERS")
    void aPeerThatClosesFailsTheOthersCollectiveWithANetworkErrorNotAHang(String provider) throws Exception {
        int ranks = 3;
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(ranks, Duration.ofSeconds(30));
        RmaConfig config = RmaConfig.of(1, 8).withTimeout(Duration.ofSeconds(60));
        List<CompletableFuture<String>> outcomes = new java.util.ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(ranks);
        // a survivor keeps its fabric open until both survivors have their error: otherwise the first to fail closes,
        // and the other may fail first on that closing survivor rather than on rank 2 (a race of the test, not a bug)
        java.util.concurrent.CountDownLatch survivorsFailed = new java.util.concurrent.CountDownLatch(2);
        for (int rank = 0; rank < ranks; rank++) {
            int self = rank;
            outcomes.add(CompletableFuture.supplyAsync(
                    () -> {
                        try (Fabric fabric = Fabrics.open(InJvmRanks.config(provider, directory, self));
                                RmaGroup group =
                                        RmaGroup.open(fabric, exchange.member(self), "dead", config, () -> {})) {
                            group.collectives().barrier();
                            if (self == 2) {
                                return "closed"; // rank 2 leaves without the next barrier: its fabric closes
                            }
                            try {
                                group.collectives().barrier();
                                return "passed";
                            } finally {
                                survivorsFailed.countDown();
                                try {
                                    survivorsFailed.await(30, TimeUnit.SECONDS);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                        } catch (FaroException e) {
                            return e.category() + ": " + e.getMessage();
                        }
                    },
                    pool));
        }
        pool.shutdown();
        for (int rank = 0; rank < 2; rank++) {
            String outcome = outcomes.get(rank).get(50, TimeUnit.SECONDS);
            assertThat(outcome).startsWith("NETWORK: rank " + rank + ":").contains("rank 2");
        }
        assertThat(outcomes.get(2).get(50, TimeUnit.SECONDS)).isEqualTo("closed");
    }

    @ParameterizedTest
    @FieldSource("PROVIDERS")
    void aPendingSlotCannotBeReused(String provider) throws Exception {
        List<String> refusals = InJvmRanks.run(provider, directory, 2, RmaConfig.of(1, 4), group -> {
            RmaWindow window = group.createWindow(1 << 20);
            MemoryRegion source = group.registerLocal(1 << 20);
            RmaLane lane = group.lane(0);
            int peer = 1 - group.rank();
            lane.put(peer, window, 0, source, 0, 1 << 20, 0);
            String refusal = "none";
            if (!lane.isComplete(0)) {
                try {
                    lane.put(peer, window, 0, source, 0, 1 << 20, 0);
                } catch (IllegalStateException e) {
                    refusal = e.getMessage();
                }
            } else {
                refusal = "request slot 0 is still pending (completed too fast to test)";
            }
            lane.flush();
            return refusal;
        });
        assertThat(refusals).allSatisfy(r -> assertThat(r).contains("slot 0 is still pending"));
    }

    @ParameterizedTest
    @FieldSource("PROVIDERS")
    void notificationsNotTakenFailTheLaneLoudlyInsteadOfBeingOverwritten(String provider) throws Exception {
        // 2 ranks × 16 receives: a lane buffers 32 notifications; rank 0 sends 64 and rank 1 only polls.
        int notifications = 64;
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(2, Duration.ofSeconds(30));
        RmaConfig config = RmaConfig.of(1, 8).withTimeout(Duration.ofSeconds(30));
        List<CompletableFuture<String>> outcomes = new java.util.ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        for (int rank = 0; rank < 2; rank++) {
            int self = rank;
            outcomes.add(CompletableFuture.supplyAsync(
                    () -> {
                        try (Fabric fabric = Fabrics.open(InJvmRanks.config(provider, directory, self));
                                RmaGroup group =
                                        RmaGroup.open(fabric, exchange.member(self), "overflow", config, () -> {})) {
                            RmaWindow window = group.createWindow(Long.BYTES);
                            MemoryRegion message = group.registerLocal(Long.BYTES);
                            RmaLane lane = group.lane(0);
                            if (self == 0) {
                                for (int i = 0; i < notifications; i++) {
                                    int slot = i % lane.requestSlots();
                                    lane.await(slot);
                                    lane.putNotify(1, window, 0, message, 0, Long.BYTES, i, slot);
                                }
                                lane.flush();
                                return "sent";
                            }
                            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                            while (System.nanoTime() - deadline < 0) {
                                lane.poll();
                            }
                            return "no overflow in 30 s";
                        } catch (FaroException e) {
                            return e.category() + ": " + e.getMessage();
                        }
                    },
                    pool));
        }
        pool.shutdown();
        assertThat(outcomes.get(1).get(50, TimeUnit.SECONDS))
                .startsWith("QUEUE_FULL: rank 1: a notified put from rank 0 found 32 notifications not yet taken");
        outcomes.get(0).get(50, TimeUnit.SECONDS); // the sender ends either way (sent, or failed by the closed peer)
    }
}
