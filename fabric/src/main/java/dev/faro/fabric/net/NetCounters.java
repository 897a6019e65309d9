package dev.faro.fabric.net;

/**
 * A node's counters, each written by one thread (the progress thread) and read by anyone (approximately, while
 * traffic flows).
 */
final class NetCounters {

    private volatile long faultLosses;
    private volatile long faultDuplicates;
    private volatile long faultReorders;
    private volatile long receiverNotReady;
    private volatile long peerFailures;
    private volatile long authenticationFailures;

    void countFaultLoss() {
        faultLosses = faultLosses + 1;
    }

    void countFaultDuplicate() {
        faultDuplicates = faultDuplicates + 1;
    }

    void countFaultReorder() {
        faultReorders = faultReorders + 1;
    }

    void countReceiverNotReady() {
        receiverNotReady = receiverNotReady + 1;
    }

    void countPeerFailure() {
        peerFailures = peerFailures + 1;
    }

    void countAuthenticationFailure() {
        authenticationFailures = authenticationFailures + 1;
    }

    long faultLosses() {
        return faultLosses;
    }

    long faultDuplicates() {
        return faultDuplicates;
    }

    long faultReorders() {
        return faultReorders;
    }

    long receiverNotReady() {
        return receiverNotReady;
    }

    long peerFailures() {
        return peerFailures;
    }

    /** TCP peers and datagrams refused because they did not prove the shared secret. */
    long authenticationFailures() {
        return authenticationFailures;
    }
}
