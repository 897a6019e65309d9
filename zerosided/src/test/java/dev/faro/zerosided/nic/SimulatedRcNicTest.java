package dev.faro.zerosided.nic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.zerosided.link.InProcessNetwork;
import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.Packet;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.packet.Psn;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated NIC as a responder, driven packet by packet from a raw link playing the switch. */
class SimulatedRcNicTest {

    private static final int MTU = 1024;

    private final InProcessNetwork network = new InProcessNetwork();
    private final Arena arena = Arena.ofConfined();
    private final Packet packet = new Packet();
    private final ByteBuffer buffer = ByteBuffer.allocate(PacketDescriptor.bufferLength(MTU));
    private PacketLink requester;
    private SimulatedRcNic nic;
    private MemorySegment memory;
    private RegisteredRegion region;
    private int qp;

    @BeforeEach
    void connect() {
        requester = network.open();
        nic = new SimulatedRcNic(network.open(), MTU);
        memory = arena.allocate(8192, 8);
        region = nic.register(memory);
        qp = nic.createQueuePair();
    }

    @AfterEach
    void close() {
        nic.close();
        requester.close();
        arena.close();
    }

    @Test
    void servesReadInMtuSegmentsWithConsecutivePsns() {
        nic.connect(qp, requester.port(), 77, 500);
        for (int i = 0; i < 2500; i++) {
            memory.set(ValueLayout.JAVA_BYTE, 100 + i, (byte) (i * 3));
        }
        send(PacketOpcode.READ_REQUEST, 500, region.address(100), region.remoteKey(), 2500, null);
        List<byte[]> responses = drain();
        assertThat(responses).hasSize(3);
        PacketOpcode[] expected = {
            PacketOpcode.READ_RESPONSE_FIRST, PacketOpcode.READ_RESPONSE_MIDDLE, PacketOpcode.READ_RESPONSE_LAST
        };
        int offset = 0;
        for (int i = 0; i < 3; i++) {
            Packet response = view(responses.get(i));
            assertThat(response.opcode()).isEqualTo(expected[i]);
            assertThat(response.psn()).isEqualTo(500 + i);
            assertThat(response.destinationQp()).isEqualTo(77);
            for (int b = 0; b < response.payloadLength(); b++) {
                assertThat(response.buffer().get(response.payloadOffset() + b)).isEqualTo((byte) ((offset + b) * 3));
            }
            offset += response.payloadLength();
        }
        assertThat(offset).isEqualTo(2500);
        send(PacketOpcode.READ_REQUEST, 500, region.address(100), region.remoteKey(), 8, null);
        assertThat(drain()).as("a duplicate READ is served again").hasSize(1);
        assertThat(nic.counters().duplicatePackets()).isEqualTo(1);
    }

    @Test
    void appliesWritesInPsnOrderReacksDuplicatesAndNaksGapsOnce() {
        nic.connect(qp, requester.port(), 77, Psn.MASK); // the message crosses the 24-bit wrap
        byte[] first = filled(MTU, 1);
        byte[] last = filled(16, 2);
        send(PacketOpcode.WRITE_FIRST, Psn.MASK, region.address(0), region.remoteKey(), MTU + 16, first);
        assertThat(drain()).as("no ACK before the message ends").isEmpty();

        // a gap: PSN 1 before 0 -> dropped, NAKed once with the expected PSN
        send(PacketOpcode.WRITE_LAST, 1, 0, 0, 0, last);
        send(PacketOpcode.WRITE_LAST, 1, 0, 0, 0, last);
        List<byte[]> naks = drain();
        assertThat(naks).hasSize(1);
        assertThat(view(naks.get(0)).syndrome()).isEqualTo(PacketDescriptor.SYNDROME_NAK_SEQUENCE);
        assertThat(view(naks.get(0)).psn()).isZero();
        assertThat(memory.get(ValueLayout.JAVA_BYTE, MTU)).isZero();

        send(PacketOpcode.WRITE_LAST, 0, 0, 0, 0, last);
        List<byte[]> acks = drain();
        assertThat(acks).hasSize(1);
        assertThat(view(acks.get(0)).syndrome()).isEqualTo(PacketDescriptor.SYNDROME_ACK);
        assertThat(view(acks.get(0)).psn()).isZero();
        assertThat(memory.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
        assertThat(memory.get(ValueLayout.JAVA_BYTE, MTU + 15)).isEqualTo((byte) 2);

        // a duplicate is ACKed again and not applied again
        memory.set(ValueLayout.JAVA_BYTE, MTU, (byte) 9);
        send(PacketOpcode.WRITE_LAST, 0, 0, 0, 0, last);
        List<byte[]> reacks = drain();
        assertThat(reacks).hasSize(1);
        assertThat(view(reacks.get(0)).psn()).isZero();
        assertThat(memory.get(ValueLayout.JAVA_BYTE, MTU)).isEqualTo((byte) 9);
        assertThat(nic.counters().duplicatePackets()).isEqualTo(1);
        assertThat(nic.counters().sequenceNaksSent()).isEqualTo(1);
    }

    @Test
    void naksAccessOutsideTheRegionAndChangesNothing() {
        nic.connect(qp, requester.port(), 77, 0);
        send(PacketOpcode.WRITE_ONLY, 0, region.address(8190), region.remoteKey(), 8, filled(8, 5));
        send(PacketOpcode.READ_REQUEST, 0, region.address(0), region.remoteKey() + 1, 8, null);
        List<byte[]> replies = drain();
        assertThat(replies).hasSize(2);
        for (byte[] reply : replies) {
            assertThat(view(reply).syndrome()).isEqualTo(PacketDescriptor.SYNDROME_NAK_REMOTE_ACCESS);
        }
        assertThat(memory.get(ValueLayout.JAVA_BYTE, 8191)).isZero();
    }

    @Test
    void aCongestionNotificationHalvesTheResponseBurstWhichThenRecovers() {
        nic.connect(qp, requester.port(), 77, 0);
        int burst = nic.responseBurst();
        send(PacketOpcode.CNP, 0, 0, 0, 0, null);
        drain();
        assertThat(nic.counters().congestionNotifications()).isEqualTo(1);
        assertThat(nic.responseBurst()).isEqualTo(burst / 2);
        for (int i = 0; i < 10_000 && nic.responseBurst() < burst; i++) {
            nic.doWork();
        }
        assertThat(nic.responseBurst()).isEqualTo(burst);
    }

    @Test
    void ignoresPacketsFromOtherPeers() {
        nic.connect(qp, requester.port() + 100, 77, 0);
        send(PacketOpcode.WRITE_ONLY, 0, region.address(0), region.remoteKey(), 8, filled(8, 5));
        assertThat(drain()).isEmpty();
        assertThat(nic.counters().strayPackets()).isEqualTo(1);
        assertThat(memory.get(ValueLayout.JAVA_BYTE, 0)).isZero();
    }

    private void send(PacketOpcode opcode, int psn, long address, int key, int length, byte[] payload) {
        packet.begin(buffer, 0, opcode, qp, psn);
        if (opcode.extensionLength() == PacketDescriptor.RETH_LENGTH) {
            packet.reth(address, key, length);
        } else if (opcode == PacketOpcode.CNP) {
            packet.cnpReserved();
        }
        int payloadLength = payload == null ? 0 : payload.length;
        if (payload != null) {
            buffer.put(opcode.headerLength(), payload);
        }
        packet.seal(payloadLength);
        requester.send(buffer, 0, packet.length(), nic.port());
    }

    /** Runs the NIC until it is idle and returns what it sent to the requester. */
    private List<byte[]> drain() {
        while (nic.doWork() > 0) {
            // until idle
        }
        List<byte[]> received = new ArrayList<>();
        ByteBuffer into = ByteBuffer.allocate(PacketDescriptor.bufferLength(MTU));
        int length;
        while ((length = requester.receive(into, 0)) != PacketLink.NOTHING) {
            byte[] copy = new byte[length];
            into.get(0, copy);
            received.add(copy);
        }
        return received;
    }

    private static Packet view(byte[] bytes) {
        Packet view = new Packet().wrap(ByteBuffer.wrap(bytes), 0, bytes.length);
        assertThat(view.verify(MTU)).isTrue();
        return view;
    }

    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
