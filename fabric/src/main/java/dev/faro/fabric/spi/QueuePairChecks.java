package dev.faro.fabric.spi;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.QueuePairType;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;

/**
 * The checks every provider's queue pairs make on {@code connect} and on a post, so that each one refuses the same
 * misuse with the same category and message: a foreign or UD address, connecting twice or after close, posting before
 * connect, a remote key of another provider, a UD request that is not a SEND within the MTU to a UD address, a closed
 * region, a full send or receive queue. For providers (net, shm, ucx); the state they check stays with the queue pair.
 * Allocation-free while the checks pass.
 */
public final class QueuePairChecks {

    private QueuePairChecks() {}

    /** The {@code INVALID_ARGUMENT} exception for an address that is not an RC address of {@code provider}. */
    public static FaroException notAnRcAddress(String provider, QueuePairAddress address) {
        return new FaroException(
                FaroException.Category.INVALID_ARGUMENT,
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
        return new FaroException(
                FaroException.Category.QUEUE_FULL,
                String.format("receive queue of queue pair %d is full (depth %d)", qpn, depth));
    }

    /** The {@code QUEUE_FULL} exception for a request posted on a full send queue. */
    public static FaroException sendQueueFull(int qpn, int depth) {
        return new FaroException(
                FaroException.Category.QUEUE_FULL,
                String.format(
                        "send queue of queue pair %d is full (depth %d): poll completions before posting more;"
                                + " unsignaled requests hold their slot until a later signaled one is polled",
                        qpn, depth));
    }

    /**
     * A UD queue pair may take {@code request}: a SEND of at most {@code mtuBytes} to a UD address of the provider
     * ({@code addressType}, named {@code provider} in the message).
     */
    public static void checkUdRequest(
            WorkRequest request, int mtuBytes, Class<? extends QueuePairAddress> addressType, String provider) {
        FaroException.checkArgument(
                request.opcode() == Opcode.SEND,
                "a UD queue pair only sends; %s needs an RC queue pair",
                request.opcode());
        FaroException.checkArgument(
                request.length() <= mtuBytes,
                "UD payload of %d bytes exceeds the MTU of %d bytes",
                request.length(),
                mtuBytes);
        QueuePairAddress destination = request.destination();
        if (!addressType.isInstance(destination) || destination.type() != QueuePairType.UD) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "a UD send needs a UD destination address of the " + provider + " fabric, not " + destination);
        }
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
    public static void checkRcRequest(
            WorkRequest request, int qpn, QueuePairState state, Class<? extends RemoteKey> keyType, String provider) {
        FaroException.checkArgument(
                state != QueuePairState.INIT, "queue pair %d is not connected: call connect(peer) first", qpn);
        Opcode opcode = request.opcode();
        if (opcode != Opcode.SEND && !keyType.isInstance(request.remoteKey())) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    opcode + " needs a remote key of the " + provider + " fabric");
        }
    }
}
