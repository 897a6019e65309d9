package dev.faro.join.rma;

import dev.faro.fabric.FaroException;
import java.time.Duration;
import java.util.Objects;

/**
 * How to open an {@link RmaGroup}.
 *
 * @param lanes the number of {@link RmaLane}s for application threads (one per thread that puts; each lane has its
 *     own completion queue and one RC queue pair per peer), besides the group's own control lane for collectives
 * @param sendQueueDepth requests one lane may have outstanding towards one peer (the NIC's queue: a put beyond it
 *     waits for a completion first, and that wait counts as put time)
 * @param requestSlots the per-request completion slots of a lane ({@link RmaLane#put} names one)
 * @param notificationDepth receives posted per queue pair for notified puts (WRITE_WITH_IMMEDIATE)
 * @param collectiveSlotBytes the bytes of one rank's slot in the collectives' control region; larger values are
 *     gathered in several rounds
 * @param timeout the longest any single wait (a collective, a completion) may take before it fails with
 *     {@code TIMEOUT}; a dead peer fails it earlier, after the fabric's peer timeout, with {@code NETWORK}
 * @param bandwidthCapBytesPerSecond 0, or an emulated injection bandwidth per rank: a put to a peer completes only
 *     when a link of this speed would have sent it ({@link BandwidthCap})
 */
public record RmaConfig(
        int lanes,
        int sendQueueDepth,
        int requestSlots,
        int notificationDepth,
        int collectiveSlotBytes,
        Duration timeout,
        long bandwidthCapBytesPerSecond) {

    /** The default time limit of a wait. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public RmaConfig {
        Objects.requireNonNull(timeout, "timeout is null");
        FaroException.checkArgument(lanes >= 1, "lanes must be positive: %d", lanes);
        FaroException.checkArgument(sendQueueDepth >= 1, "sendQueueDepth must be positive: %d", sendQueueDepth);
        FaroException.checkArgument(requestSlots >= 1, "requestSlots must be positive: %d", requestSlots);
        FaroException.checkArgument(
                notificationDepth >= 1, "notificationDepth must be positive: %d", notificationDepth);
        FaroException.checkArgument(
                collectiveSlotBytes >= 64 && collectiveSlotBytes % 8 == 0,
                "collectiveSlotBytes must be a multiple of 8 and at least 64: %d",
                collectiveSlotBytes);
        FaroException.checkArgument(!timeout.isNegative() && !timeout.isZero(), "timeout must be positive");
        FaroException.checkArgument(
                bandwidthCapBytesPerSecond >= 0,
                "bandwidthCapBytesPerSecond must not be negative: %d",
                bandwidthCapBytesPerSecond);
    }

    /** {@code lanes} lanes, 128 outstanding puts per peer, {@code requestSlots} slots, 16 KiB collective slots. */
    public static RmaConfig of(int lanes, int requestSlots) {
        return new RmaConfig(lanes, 128, requestSlots, 16, 16 * 1024, DEFAULT_TIMEOUT, 0);
    }

    public RmaConfig withTimeout(Duration value) {
        return new RmaConfig(
                lanes,
                sendQueueDepth,
                requestSlots,
                notificationDepth,
                collectiveSlotBytes,
                value,
                bandwidthCapBytesPerSecond);
    }

    public RmaConfig withSendQueueDepth(int value) {
        return new RmaConfig(
                lanes,
                value,
                requestSlots,
                notificationDepth,
                collectiveSlotBytes,
                timeout,
                bandwidthCapBytesPerSecond);
    }

    /** With an emulated injection bandwidth per rank (0: none). */
    public RmaConfig withBandwidthCap(long bytesPerSecond) {
        return new RmaConfig(
                lanes, sendQueueDepth, requestSlots, notificationDepth, collectiveSlotBytes, timeout, bytesPerSecond);
    }
}
