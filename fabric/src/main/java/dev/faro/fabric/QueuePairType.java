package dev.faro.fabric;

/** The transport service of a queue pair. */
public enum QueuePairType {
    /** Reliable Connection: one peer, exactly once, in order; every opcode. */
    RC,
    /** Unreliable Datagram: any peer, SEND only, payload at most the MTU, may drop. */
    UD
}
