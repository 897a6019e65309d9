package dev.faro.middleware;

import java.util.List;

/**
 * Bootstrap for {@link ShuffleMiddleware#open}: every process contributes one byte array and receives all of them,
 * indexed by process. The cluster runtime implements it over its control channel; tests implement it in memory.
 * Coordination code, called once per open.
 */
@FunctionalInterface
public interface PeerExchange {

    /**
     * Publishes {@code mine} as this process's contribution and waits for every process's.
     *
     * @return the contributions indexed by process (this process's own included)
     */
    List<byte[]> allGather(byte[] mine) throws InterruptedException;
}
