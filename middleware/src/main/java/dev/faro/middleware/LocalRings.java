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

    LocalRings(MiddlewareConfig config, WorkerSlot[] slots, Arena arena) {
        int n = config.workersPerProcess();
        long ringBytes = config.ringBytes();
        MemorySegment memory = arena.allocate(n * n * ringBytes, 64);
        incoming = new IncomingRing[n][n];
        outgoing = new OutgoingRing[n][n];
        for (int writer = 0; writer < n; writer++) {
            for (int reader = 0; reader < n; reader++) {
                int index = writer * n + reader;
                MemorySegment ring = memory.asSlice(index * ringBytes, ringBytes);
                incoming[reader][writer] = new IncomingRing(index, ring, null, slots[writer]);
                outgoing[writer][reader] = new OutgoingRing(
                        index,
                        config.ringBytes(),
                        config.writeThreshold(),
                        ring,
                        null,
                        null,
                        0,
                        0,
                        incoming[reader][writer],
                        slots[reader]);
            }
        }
    }
}
