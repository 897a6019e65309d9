package dev.faro.bench.join;

import dev.faro.fabric.MemoryRegion;
import dev.faro.join.rma.RmaGroup;
import dev.faro.join.rma.RmaLane;
import dev.faro.join.rma.RmaWindow;
import java.util.List;

/**
 * The fabric bandwidth the model needs ({@code bw}, thesis Eq. 3.2): rank 0 puts {@code bytes} to rank 1 in
 * messages of the join's buffer size, up to 8 outstanding, the way the network pass does; rank 1's CPU does nothing. Both
 * ranks return the measured bytes per second (rank 0's figure, broadcast). Coordination code.
 */
final class BandwidthProbe {

    private static final int OUTSTANDING = 8;

    /** The message sizes of the bandwidth curve (the model's bw against message size). */
    static final List<Integer> CURVE_BYTES = List.of(1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20);

    private BandwidthProbe() {}

    static double measure(RmaGroup group, long bytes, int messageBytes) {
        int windowMessages = 64;
        RmaWindow window = group.createWindow((long) windowMessages * messageBytes);
        long[] result = new long[1];
        RmaLane lane = group.lane(0);
        int outstanding = Math.min(OUTSTANDING, lane.requestSlots());
        try (MemoryRegion source = group.registerLocal((long) outstanding * messageBytes)) {
            group.collectives().barrier();
            if (group.rank() == 0) {
                long messages = Math.max(outstanding, bytes / messageBytes);
                long start = System.nanoTime();
                for (long m = 0; m < messages; m++) {
                    int slot = (int) (m % outstanding);
                    lane.await(slot);
                    lane.put(
                            1,
                            window,
                            (m % windowMessages) * messageBytes,
                            source,
                            (long) slot * messageBytes,
                            messageBytes,
                            slot);
                }
                lane.flush();
                long nanos = Math.max(1, System.nanoTime() - start);
                result[0] = Math.round(messages * (double) messageBytes * 1e9 / nanos);
            }
            long[] shared = group.collectives().broadcast(0, result);
            window.close();
            return shared[0];
        }
    }
}
