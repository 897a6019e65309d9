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
