package dev.faro.fabric.spi;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
/**
 * The checks every provider's queue pairs make on {@code connect} and on an RC post, so that each one refuses the
 * same misuse with the same category and message: a foreign or UD address, connecting twice or after close, posting
 * before connect, a remote key of another provider, a closed region, a full receive queue. For providers (net, shm, ucx); the state they check stays with
 * the queue pair. Allocation-free while the checks pass.
 */
public final class QueuePairChecks {

    private QueuePairChecks() {}

    /** The {@code INVALID_ARGUMENT} exception for an address that is not an RC address of {@code provider}. */
    public static FaroException notAnRcAddress(String provider, QueuePairAddress address) {
        return new FaroException(FaroException.Category.INVALID_ARGUMENT,
                "not an RC address of the " + provider + " fabric: " + address);
    }

    /** The {@code CLOSED} exception for a closed queue pair. */
    public static FaroException queuePairClosed(int qpn) {
        return new FaroException(FaroException.Category.CLOSED, "queue pair " + qpn + " is closed");
    }

    /** The {@code CLOSED} exception for a request or receive whose region closed before it could be pinned. */
    public static FaroException regionClosed(MemoryRegion region) {
        return new FaroException(FaroException.Category.CLOSED, "region " + region + " is closed");
    }

    /** The {@code QUEUE_FULL} exception for a receive posted on a full receive queue. */
    public static FaroException receiveQueueFull(int qpn, int depth) {
        return new FaroException(FaroException.Category.QUEUE_FULL,
                String.format("receive queue of queue pair %d is full (depth %d)", qpn, depth));
    }

    /**
     * A queue pair in {@code state} may connect: {@code CLOSED} if it is closed, {@code INVALID_ARGUMENT} if it is
     * already connected (not INIT).
     */
    public static void checkConnectable(int qpn, QueuePairState state) {
        if (state == QueuePairState.CLOSED) {
            throw queuePairClosed(qpn);
        }
        FaroException.checkArgument(state == QueuePairState.INIT, "queue pair %d is already connected", qpn);
    }

    /**
     * An RC queue pair in {@code state} may take {@code request}: it is connected, and a one-sided or atomic request
     * carries a remote key of the provider ({@code keyType}, named {@code provider} in the message).
     */
    public static void checkRcRequest(WorkRequest request, int qpn, QueuePairState state,
            Class<? extends RemoteKey> keyType, String provider) {
        FaroException.checkArgument(state != QueuePairState.INIT,
                "queue pair %d is not connected: call connect(peer) first", qpn);
        Opcode opcode = request.opcode();
        if (opcode != Opcode.SEND && !keyType.isInstance(request.remoteKey())) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT,
                    opcode + " needs a remote key of the " + provider + " fabric");
        }
    }
}
