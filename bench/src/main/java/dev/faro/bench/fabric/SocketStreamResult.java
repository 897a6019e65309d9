package dev.faro.bench.fabric;

import dev.faro.bench.report.Medians;
import java.util.Arrays;
import java.util.List;

/**
 * The plain blocking-socket stream at one write size, the baseline the {@code net} provider's RC bandwidth is
 * measured against ({@link SocketStreamBaseline}): medians over the runs, measured right after the fabric point it is
 * compared with, between the same two workers, so both meet the same machine load.
 *
 * @param beside the fabric operation measured just before, at the same size
 * @param sizeBytes bytes per write
 * @param runs timed runs
 * @param gigabytesPerSecond median bandwidth, GB/s (1e9 bytes per second)
 * @param minGigabytesPerSecond the slowest run
 * @param maxGigabytesPerSecond the fastest run
 */
public record SocketStreamResult(
        FabricOperation beside,
        int sizeBytes,
        int runs,
        double gigabytesPerSecond,
        double minGigabytesPerSecond,
        double maxGigabytesPerSecond) {

    /** The write sizes the baseline runs at, when the benchmark measures them: 64 KiB and 1 MiB. */
    static final List<Integer> SIZES = List.of(64 << 10, 1 << 20);

    /** Whether the benchmark measures the socket stream beside {@code operation} at {@code sizeBytes}. */
    static boolean measuredBeside(FabricOperation operation, int sizeBytes) {
        return !operation.isUd() && SIZES.contains(sizeBytes);
    }

    static SocketStreamResult of(FabricOperation beside, int sizeBytes, List<Measurement> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no socket runs at " + sizeBytes + " B");
        }
        double[] bandwidth =
                runs.stream().mapToDouble(Measurement::gigabytesPerSecond).toArray();
        return new SocketStreamResult(
                beside,
                sizeBytes,
                runs.size(),
                Medians.of(bandwidth),
                Arrays.stream(bandwidth).min().orElseThrow(),
                Arrays.stream(bandwidth).max().orElseThrow());
    }
}
