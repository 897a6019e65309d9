package dev.faro.fabric.bootstrap;

/**
 * The bootstrap channel endpoints use to swap queue-pair addresses and remote keys at open (the "exchange routing
 * information" step of TODS19 §2.3). Every node of a shuffle calls {@link #allGather} with the same keys in the same
 * order. Implementations: in one JVM ({@link LocalPeerExchange}), and through the cluster coordinator.
 */
public interface PeerExchange {

    /** This node's index, in [0, {@link #nodes()}). */
    int nodeIndex();

    int nodes();

    /**
     * Contributes {@code local} under {@code key} and returns every node's contribution, indexed by node. Blocks until
     * every node has contributed, or throws {@link dev.faro.fabric.FaroException} ({@code TIMEOUT} or
     * {@code NETWORK}) when that does not happen within the exchange's time limit.
     */
    byte[][] allGather(String key, byte[] local);

    /**
     * Whether a node that fails ends the other nodes' waits without telling them itself: true where a coordinator
     * cancels the other nodes' part of the work (and so interrupts their gathers) as soon as one node fails. Then a
     * failed node must not wait in a gather of its own to announce the failure: the others may be waiting in another
     * gather that it will never join (it failed before), and both would wait out the exchange's time limit.
     */
    default boolean endsPeersOnFailure() {
        return false;
    }
}
