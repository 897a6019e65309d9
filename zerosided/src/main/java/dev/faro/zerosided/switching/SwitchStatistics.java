package dev.faro.zerosided.switching;

/**
 * The switch's counters. Written by the switch's agent thread only; other threads read them approximately (plain
 * fields, no ordering), except {@link #failure()}, which is volatile.
 */
public final class SwitchStatistics {
    long packetsReceived;
    long packetsForwarded;
    long malformedPackets;
    long stalePackets;
    long transfers;
    long itemsMoved;
    long bytesMoved;
    long polls;
    long doorbells;
    long retries;
    long naksReceived;
    long recirculations;
    long heldPayloadBytes;
    long payloadHighWaterBytes;
    long inFlightDataPackets;
    long payloadBoundViolations;
    long endsOfStream;
    long congestionNotifications;
    volatile String failure;

    public long packetsReceived() {
        return packetsReceived;
    }

    /** READ response packets rewritten into WRITEs and sent on. */
    public long packetsForwarded() {
        return packetsForwarded;
    }

    public long malformedPackets() {
        return malformedPackets;
    }

    /** Late or duplicate responses and ACKs that matched no outstanding operation: dropped. */
    public long stalePackets() {
        return stalePackets;
    }

    /** Completed transfers (READ, WRITE, head WRITE, tail WRITE, all ACKed). */
    public long transfers() {
        return transfers;
    }

    public long itemsMoved() {
        return itemsMoved;
    }

    public long bytesMoved() {
        return bytesMoved;
    }

    /** Pointer READs issued (polling). */
    public long polls() {
        return polls;
    }

    public long doorbells() {
        return doorbells;
    }

    /** Operations reissued after a timeout or a NAK. */
    public long retries() {
        return retries;
    }

    public long naksReceived() {
        return naksReceived;
    }

    /** Passes of a switch thread that found nothing to do and went round again. */
    public long recirculations() {
        return recirculations;
    }

    /** The most payload the switch ever held at once (it forwards each packet as it arrives: one packet's at most). */
    public long payloadHighWaterBytes() {
        return payloadHighWaterBytes;
    }

    /** Times the switch held more payload than the data packets in flight could carry: must stay 0. */
    public long payloadBoundViolations() {
        return payloadBoundViolations;
    }

    /** Consumers told that their stream ended. */
    public long endsOfStream() {
        return endsOfStream;
    }

    /** CNPs sent to producers' NICs (one per sequence NAK of a data WRITE: data lost on the way to a consumer). */
    public long congestionNotifications() {
        return congestionNotifications;
    }

    /** The first flow failure (a PU that stopped answering, an access error), or null. */
    public String failure() {
        return failure;
    }
}
