package dev.faro.zerosided;

import dev.faro.zerosided.nic.RegisteredRegion;
import dev.faro.zerosided.nic.SimulatedRcNic;
import dev.faro.zerosided.switching.SwitchEndpoint;
import dev.faro.zerosided.unit.Doorbell;
import dev.faro.zerosided.unit.ZeroSidedBuffer;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The one-time set-up of a zero-sided buffer on a processing unit (paper §3.2, software requirements): allocate it,
 * register it with the PU's NIC, create the queue pair for its connection to the switch, describe it for the switch's
 * control plane ({@link #endpoint()}), and connect once the switch has installed it. The PU's threads then use only
 * {@link #view}.
 *
 * <p>Coordination code; a small CPU (or the test) does it, never the data path.
 */
public final class BufferExposure {

    private final SimulatedRcNic nic;
    private final MemorySegment segment;
    private final RegisteredRegion region;
    private final int queuePair;
    private final SwitchEndpoint endpoint;

    private BufferExposure(SimulatedRcNic nic, MemorySegment segment, int capacity, int itemBytes, boolean producer) {
        this.nic = nic;
        this.segment = segment;
        this.region = nic.register(segment);
        this.queuePair = nic.createQueuePair();
        this.endpoint = new SwitchEndpoint(
                nic.port(), queuePair, region.remoteKey(), region.baseAddress(), capacity, itemBytes, producer);
    }

    /** Allocates a buffer of {@code capacity} items of {@code itemBytes} in {@code arena} and registers it. */
    public static BufferExposure allocate(
            SimulatedRcNic nic, Arena arena, int capacity, int itemBytes, boolean producer) {
        long length = ZeroSidedBufferDescriptor.lengthBytes(capacity, itemBytes);
        return new BufferExposure(nic, arena.allocate(length, 128), capacity, itemBytes, producer);
    }

    /** What the switch's static table needs about this buffer. */
    public SwitchEndpoint endpoint() {
        return endpoint;
    }

    public MemorySegment segment() {
        return segment;
    }

    /** Connects this buffer's queue pair to the switch's queue pair {@code switchQueuePair} at {@code switchPort}. */
    public void connect(int switchPort, int switchQueuePair, int firstPsn) {
        nic.connect(queuePair, switchPort, switchQueuePair, firstPsn);
    }

    /**
     * Formats the buffer and returns the PU's view of it (producer or consumer, as allocated); call before the switch
     * starts a flow on it.
     *
     * @param doorbell the pointer doorbell, or null for polling
     */
    public ZeroSidedBuffer view(Doorbell doorbell) {
        return endpoint.producer()
                ? ZeroSidedBuffer.producer(segment, endpoint.capacity(), endpoint.itemBytes(), doorbell)
                : ZeroSidedBuffer.consumer(segment, endpoint.capacity(), endpoint.itemBytes(), doorbell);
    }
}
