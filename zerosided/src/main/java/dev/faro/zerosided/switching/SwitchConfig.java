package dev.faro.zerosided.switching;

import dev.faro.zerosided.packet.PacketDescriptor;

/**
 * How the switch behaves.
 *
 * @param mtuBytes the largest payload of one packet (the PUs' NICs must use the same)
 * @param maxBatchBytes the adaptive batching cap: a transfer moves min(available, free, this / item size) items
 * @param pollIntervalNs how often the switch READs a PU pointer it waits on (0: whenever it is idle); with doorbells
 *     make it long, as a safety net for lost doorbells
 * @param retryTimeoutNs how long an operation waits for its ACK or response before it is reissued
 * @param maxRetries reissues of one operation before its flow fails (a dead PU: a clear error instead of a hang)
 */
public record SwitchConfig(int mtuBytes, int maxBatchBytes, long pollIntervalNs, long retryTimeoutNs, int maxRetries) {

    /** MTU 1024, batches up to 64 KiB, continuous polling, 50 ms timeout (RDMA NICs use tens of ms), 200 retries. */
    public static final SwitchConfig DEFAULT =
            new SwitchConfig(PacketDescriptor.DEFAULT_MTU_BYTES, 64 << 10, 0, 50_000_000, 200);

    public SwitchConfig {
        PacketDescriptor.checkMtu(mtuBytes);
        if (maxBatchBytes <= 0 || maxBatchBytes > 4 << 20) {
            throw new IllegalArgumentException(
                    "maxBatchBytes must be within [1, 4 MiB]: maxBatchBytes=" + maxBatchBytes);
        }
        if (pollIntervalNs < 0 || retryTimeoutNs <= 0 || maxRetries < 0) {
            throw new IllegalArgumentException("pollIntervalNs=" + pollIntervalNs + " retryTimeoutNs=" + retryTimeoutNs
                    + " maxRetries=" + maxRetries + " must be >= 0, > 0, >= 0");
        }
    }

    public SwitchConfig withMaxBatchBytes(int value) {
        return new SwitchConfig(mtuBytes, value, pollIntervalNs, retryTimeoutNs, maxRetries);
    }

    public SwitchConfig withPollIntervalNs(long value) {
        return new SwitchConfig(mtuBytes, maxBatchBytes, value, retryTimeoutNs, maxRetries);
    }

    public SwitchConfig withRetryTimeoutNs(long value) {
        return new SwitchConfig(mtuBytes, maxBatchBytes, pollIntervalNs, value, maxRetries);
    }

    public SwitchConfig withMaxRetries(int value) {
        return new SwitchConfig(mtuBytes, maxBatchBytes, pollIntervalNs, retryTimeoutNs, value);
    }
}
