package dev.faro.zerosided;

import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.Packet;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.unit.Doorbell;
import java.nio.ByteBuffer;

/**
 * A {@link Doorbell} that sends a DOORBELL packet to the switch over its own link: the paper's option for a PU that
 * can send packets (a CPU, a network-attached FPGA). It carries the pointer word's address and value; the switch takes
 * it as it would a polled value, so a lost doorbell only delays until the next poll.
 *
 * <p>Owned by the PU thread that rings it. Data path: allocation-free.
 */
public final class LinkDoorbell implements Doorbell {

    private final PacketLink link;
    private final int switchPort;
    private final int switchQueuePair;
    private final long baseAddress;
    private final Packet packet = new Packet();
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(PacketDescriptor.bufferLength(256));

    /**
     * A doorbell for the buffer at {@code baseAddress} whose connection is the switch's queue pair
     * {@code switchQueuePair}.
     */
    public LinkDoorbell(PacketLink link, int switchPort, int switchQueuePair, long baseAddress) {
        this.link = link;
        this.switchPort = switchPort;
        this.switchQueuePair = switchQueuePair;
        this.baseAddress = baseAddress;
    }

    @Override
    public void ring(long wordOffset, long value) {
        packet.begin(buffer, 0, PacketOpcode.DOORBELL, switchQueuePair, 0)
                .dbeth(baseAddress + wordOffset, value)
                .seal(0);
        link.send(buffer, 0, packet.length(), switchPort);
    }
}
