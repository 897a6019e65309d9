package dev.faro.middleware;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The rings between workers of the same process (the paper's local shortcut: no serialization to the network, no
 * notification; the reader reads the writer's ring in place). Shared by the fabric middleware and the NIO
 * baseline, so both have the same same-process path and differ only between processes.
 */
final class LocalRings {

    /** incoming[reader][writer] */
    final IncomingRing[][] incoming;
    /** outgoing[writer][reader] */
    final OutgoingRing[][] outgoing;

    /**
     * @param ready each local reader's list of rings with data; a ring's place on it is its writer's global id
     */
    LocalRings(MiddlewareConfig config, int process, WorkerSlot[] slots, ReadyRings[] ready, Arena arena) {
        int n = config.workersPerProcess();
        long ringBytes = config.ringBytes();
        MemorySegment memory = arena.allocate(n * n * ringBytes, 64);
        incoming = new IncomingRing[n][n];
        outgoing = new OutgoingRing[n][n];
        for (int writer = 0; writer < n; writer++) {
            for (int reader = 0; reader < n; reader++) {
                int index = writer * n + reader;
                MemorySegment ring = memory.asSlice(index * ringBytes, ringBytes);
                incoming[reader][writer] = new IncomingRing(
                        index, ring, null, slots[writer], ready[reader], process * n + writer, slots[reader]);
                outgoing[writer][reader] = new OutgoingRing(
                        index,
                        config.ringBytes(),
                        config.writeThreshold(),
                        ring,
                        null,
                        null,
                        0,
                        0,
                        incoming[reader][writer]);
            }
        }
    }
}
