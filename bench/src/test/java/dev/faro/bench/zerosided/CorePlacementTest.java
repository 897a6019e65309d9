package dev.faro.bench.zerosided;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.faro.txn.node.CpuAffinity;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Fig. 6's pinned placement: a thread of the network (here one named as the switch's loop) ends up on the first
 * allowed CPU, an endpoint thread on the last, and nothing is pinned when not asked.
 */
class CorePlacementTest {

    @Test
    void networkThreadsGoToTheFirstCpuAndEndpointThreadsToTheLast() throws Exception {
        List<Integer> allowed = CpuAffinity.allowed();
        assumeThat(allowed.size()).as("two allowed CPUs (Linux)").isGreaterThanOrEqualTo(2);
        CorePlacement placement = CorePlacement.of(true);
        assertThat(placement.pinned()).isTrue();

        CountDownLatch named = new CountDownLatch(1);
        CountDownLatch pinned = new CountDownLatch(1);
        AtomicReference<List<Integer>> network = new AtomicReference<>();
        Thread switchLoop = Thread.ofPlatform().name("zerosided-switch").start(() -> {
            named.countDown();
            try {
                pinned.await();
            } catch (InterruptedException e) {
                return;
            }
            network.set(CpuAffinity.allowed());
        });
        AtomicReference<List<Integer>> endpoint = new AtomicReference<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            placement.pinEndpointThread();
            endpoint.set(CpuAffinity.allowed());
        });
        named.await();
        assertThat(placement.pinNetworkThreads(1)).isEqualTo(1);
        pinned.countDown();
        switchLoop.join();
        producer.join();

        assertThat(network.get()).containsExactly(allowed.getFirst());
        assertThat(endpoint.get()).containsExactly(allowed.getLast());
        assertThat(CpuAffinity.allowed()).as("the caller keeps its CPUs").isEqualTo(allowed);
    }

    @Test
    void notAskedNothingIsPinned() {
        CorePlacement placement = CorePlacement.of(false);
        assertThat(placement.pinned()).isFalse();
        assertThat(placement.endpoints()).isEmpty();
        assertThat(placement.pinNetworkThreads(1)).isZero();
    }

    @Test
    void aUnitOfWorkIsADeterministicChain() {
        assertThat(EndpointThreads.compute(1, 0)).isEqualTo(1);
        assertThat(EndpointThreads.compute(1, 10)).isEqualTo(EndpointThreads.compute(1, 10));
        assertThat(EndpointThreads.compute(1, 10)).isNotEqualTo(EndpointThreads.compute(1, 11));
    }
}
