package dev.faro.zerosided.nic;

/**
 * What a {@link SimulatedRcNic} has done so far. Written by the NIC's agent thread only; other threads read the
 * values approximately (plain longs, no ordering).
 */
public final class NicCounters {
    long packetsReceived;
    long malformedPackets;
    long strayPackets;
    long readRequests;
    long readResponsePackets;
    long writePacketsApplied;
    long duplicatePackets;
    long outOfOrderPackets;
    long acknowledgementsSent;
    long sequenceNaksSent;
    long accessNaksSent;
    long congestionNotifications;

    public long packetsReceived() {
        return packetsReceived;
    }

    /** Packets dropped because their headers or ICRC were bad. */
    public long malformedPackets() {
        return malformedPackets;
    }

    /** Packets for a queue pair that is not connected, or from another peer than the connected one. */
    public long strayPackets() {
        return strayPackets;
    }

    public long readRequests() {
        return readRequests;
    }

    public long readResponsePackets() {
        return readResponsePackets;
    }

    public long writePacketsApplied() {
        return writePacketsApplied;
    }

    /** WRITE packets (or READ requests) whose PSN was already seen: re-ACKed (re-served), not applied again. */
    public long duplicatePackets() {
        return duplicatePackets;
    }

    /** Packets ahead of the expected PSN: dropped, the gap NAKed once. */
    public long outOfOrderPackets() {
        return outOfOrderPackets;
    }

    public long acknowledgementsSent() {
        return acknowledgementsSent;
    }

    public long sequenceNaksSent() {
        return sequenceNaksSent;
    }

    public long accessNaksSent() {
        return accessNaksSent;
    }

    public long congestionNotifications() {
        return congestionNotifications;
    }
}
