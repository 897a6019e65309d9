package dev.faro.bench.zerosided;

import dev.faro.txn.node.CpuAffinity;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the threads of a pinned Fig. 6 point run ({@code --pin}): the paper's switch is separate hardware and its NICs
 * move data by DMA, so the endpoints' CPUs are free. On a host with two CPUs the analogue puts "the network" (the
 * switch loop, the simulated RC NICs, the verbs fabric's progress threads) on the first allowed CPU and "the
 * processing units' host" (producer, consumer and, for the baseline, driver threads) on the last one. Without two
 * allowed CPUs, or without Linux's affinity calls, nothing is pinned.
 *
 * <p>Coordination code: called when a thread starts, or once after another component started its thread.
 */
final class CorePlacement {

    /** The thread name prefixes of "network" threads this process did not start itself. */
    static final List<String> NETWORK_THREADS = List.of("zerosided-switch", "zerosided-nic", "faro-net-progress");

    private static final long FIND_TIMEOUT_NS = 2_000_000_000L;

    private final List<Integer> network;
    private final List<Integer> endpoints;

    private CorePlacement(List<Integer> network, List<Integer> endpoints) {
        this.network = network;
        this.endpoints = endpoints;
    }

    /** The placement of a point: pinned when asked and possible, else none (every list empty). */
    static CorePlacement of(boolean pin) {
        List<Integer> allowed = CpuAffinity.allowed();
        if (!pin || allowed.size() < 2) {
            return new CorePlacement(List.of(), List.of());
        }
        return new CorePlacement(List.of(allowed.getFirst()), List.of(allowed.getLast()));
    }

    boolean pinned() {
        return !endpoints.isEmpty();
    }

    /** The CPUs of the processing units' threads (empty: not pinned). */
    List<Integer> endpoints() {
        return endpoints;
    }

    /** Pins the calling thread to the processing units' CPU (a producer, consumer or driver thread). */
    void pinEndpointThread() {
        if (pinned()) {
            CpuAffinity.pin(endpoints);
        }
    }

    /**
     * Pins the network threads of this process ({@link #NETWORK_THREADS}) that are running now to the network's CPU,
     * waiting up to two seconds for {@code expected} of them to show up (a just-started thread names itself).
     *
     * @return how many were pinned
     */
    int pinNetworkThreads(int expected) {
        if (!pinned()) {
            return 0;
        }
        long deadline = System.nanoTime() + FIND_TIMEOUT_NS;
        int pinned;
        do {
            pinned = 0;
            for (String prefix : NETWORK_THREADS) {
                pinned += CpuAffinity.pinThreadsNamed(prefix, network);
            }
            if (pinned >= expected) {
                return pinned;
            }
            LockSupport.parkNanos(1_000_000);
        } while (System.nanoTime() - deadline < 0);
        return pinned;
    }
}
