package dev.faro.middleware;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A {@link PeerExchange} for processes simulated by threads of one JVM. */
final class InMemoryExchange {

    private final byte[][] contributions;
    private final CyclicBarrier barrier;

    InMemoryExchange(int processes) {
        this.contributions = new byte[processes][];
        this.barrier = new CyclicBarrier(processes);
    }

    PeerExchange member(int process) {
        return mine -> {
            contributions[process] = mine;
            await();
            List<byte[]> all = new ArrayList<>();
            for (byte[] contribution : contributions) {
                all.add(contribution);
            }
            await();
            return all;
        };
    }

    private void await() throws InterruptedException {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("exchange failed", e);
        }
    }
}
