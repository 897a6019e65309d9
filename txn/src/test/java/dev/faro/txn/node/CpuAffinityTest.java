package dev.faro.txn.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CpuAffinityTest {

    @Test
    void eachNodeGetsItsShareOfTheHostsCpus() {
        assertThat(CpuAffinity.shareOf(List.of(0, 1), 0, 2)).containsExactly(0);
        assertThat(CpuAffinity.shareOf(List.of(0, 1), 1, 2)).containsExactly(1);
        List<Integer> host = IntStream.range(0, 36).boxed().toList();
        assertThat(CpuAffinity.shareOf(host, 0, 2)).isEqualTo(host.subList(0, 18));
        assertThat(CpuAffinity.shareOf(host, 1, 2)).isEqualTo(host.subList(18, 36));
        // more nodes than CPUs: one each, wrapping around
        assertThat(CpuAffinity.shareOf(List.of(4, 6), 2, 4)).containsExactly(4);
        assertThat(CpuAffinity.shareOf(List.of(4, 6), 3, 4)).containsExactly(6);
        assertThat(CpuAffinity.shareOf(List.of(), 0, 2)).isEmpty();
        assertThatThrownBy(() -> CpuAffinity.shareOf(List.of(0), 2, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aThreadFoundByItsNameIsPinnedFromOutside() throws Exception {
        List<Integer> allowed = CpuAffinity.allowed();
        assumeThat(allowed).as("sched_getaffinity (Linux)").isNotEmpty();
        List<Integer> last = List.of(allowed.getLast());
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch pinned = new java.util.concurrent.CountDownLatch(1);
        AtomicReference<List<Integer>> seen = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().name("affinity-test-target-thread").start(() -> {
            started.countDown(); // the JVM names the native thread before running this
            try {
                pinned.await();
            } catch (InterruptedException e) {
                return;
            }
            seen.set(CpuAffinity.allowed());
        });
        started.await();
        assertThat(CpuAffinity.threadIds("affinity-test-target-thread")).hasSize(1);
        assertThat(CpuAffinity.pinThreadsNamed("affinity-test-target-thread", last))
                .isEqualTo(1);
        pinned.countDown();
        thread.join();
        assertThat(seen.get()).isEqualTo(last);
        assertThat(CpuAffinity.allowed()).as("the caller keeps its CPUs").isEqualTo(allowed);
        assertThat(CpuAffinity.threadIds("no-such-thread-name")).isEmpty();
    }

    @Test
    void aPinnedThreadRunsOnlyOnItsCpus() throws Exception {
        List<Integer> allowed = CpuAffinity.allowed();
        assumeThat(allowed).as("sched_getaffinity (Linux)").isNotEmpty();
        List<Integer> last = List.of(allowed.getLast());
        AtomicReference<List<Integer>> seen = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            if (CpuAffinity.pin(last)) {
                seen.set(CpuAffinity.allowed());
            }
        });
        thread.join();
        assertThat(seen.get()).isEqualTo(last);
        assertThat(CpuAffinity.allowed()).as("other threads keep theirs").isEqualTo(allowed);
        assertThat(CpuAffinity.pin(List.of())).isFalse();
    }

    @Test
    void aNodePinnedToOneCpuStillServesEveryAgent() throws Exception {
        List<Integer> allowed = CpuAffinity.allowed();
        assumeThat(allowed).as("sched_getaffinity (Linux)").isNotEmpty();
        Topology topology = new Topology(2, 1, 1, 256);
        LockManagerOptions options = LockManagerOptions.defaults().withCpus(List.of(allowed.getFirst()));
        try (LocalLockManager manager = new LocalLockManager("shm", topology, options)) {
            ModelCalibration calibration = ModelCalibration.measureAll(manager.agents(), 20);
            assertThat(calibration.localLockMicros()).isPositive();
            assertThat(calibration.voteMicros()).isPositive();
            AtomicReference<Boolean> pinned = new AtomicReference<>();
            Thread thread = Thread.ofPlatform()
                    .start(() -> pinned.set(manager.nodes().getFirst().pinToCpus()));
            thread.join();
            assertThat(pinned.get()).isTrue();
            manager.stopServers();
            for (LockServer server : manager.servers()) {
                assertThat(server.table().isIdle()).as("no lock left held").isTrue();
            }
        }
    }
}
