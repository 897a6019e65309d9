package dev.faro.zerosided.switching;

import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;

/**
 * One buffer a processing unit exposes to the switch, as the control plane installs it in the switch's static table:
 * where its NIC is, the queue pair that NIC connected to the switch for it, and the buffer's key, address and shape.
 *
 * @param port the PU NIC's port on the packet fabric (a UDP port, or a shared-memory link's process-qualified port)
 * @param queuePair the PU NIC's queue pair number for this buffer (connected to the switch)
 * @param remoteKey the key of the region holding the buffer
 * @param baseAddress the virtual address of the buffer's first byte (its head word)
 * @param capacity the buffer's slots
 * @param itemBytes the size of one item
 * @param producer true for a producer's outgoing buffer, false for a consumer's incoming one
 */
public record SwitchEndpoint(
        int port, int queuePair, int remoteKey, long baseAddress, int capacity, int itemBytes, boolean producer) {

    public SwitchEndpoint {
        if (port <= 0) {
            throw new IllegalArgumentException("port must be positive: port=" + port);
        }
        ZeroSidedBufferDescriptor.lengthBytes(capacity, itemBytes);
    }
}
