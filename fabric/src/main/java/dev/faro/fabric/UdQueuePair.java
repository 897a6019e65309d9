package dev.faro.fabric;

/**
 * An Unreliable Datagram queue pair: SEND to any UD queue pair of the provider, payload at most {@link #mtuBytes()};
 * a SEND that finds no posted receive is dropped (and counted), and the sender still sees success. Receives carry no
 * routing header: the whole buffer is payload, and the completion names the sender.
 */
public non-sealed interface UdQueuePair extends QueuePair {

    /** The largest payload of one SEND. */
    int mtuBytes();

    /** SENDs that arrived here and found no posted receive (dropped). */
    long receivesMissed();
}
