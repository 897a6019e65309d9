package dev.faro.zerosided.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PacketTest {

    private final ByteBuffer buffer = ByteBuffer.allocate(PacketDescriptor.bufferLength(1024));
    private final Packet packet = new Packet();

    @Test
    void readRequestHeadersAreByteExact() {
        packet.begin(buffer, 0, PacketOpcode.READ_REQUEST, 0x123456, 0xABCDEF)
                .reth(0x0102030405060708L, 0x11223344, 4096)
                .seal(0);
        assertThat(packet.length()).isEqualTo(12 + 16 + 4);
        byte[] header = new byte[28];
        buffer.get(0, header);
        assertThat(HexFormat.of().formatHex(header))
                .isEqualTo("0c00ffff" + "00123456" + "00abcdef" + "0102030405060708" + "11223344" + "00001000");
        assertThat(packet.wrap(buffer, 0, packet.length()).verify(1024)).isTrue();
        assertThat(packet.opcode()).isEqualTo(PacketOpcode.READ_REQUEST);
        assertThat(packet.destinationQp()).isEqualTo(0x123456);
        assertThat(packet.psn()).isEqualTo(0xABCDEF);
        assertThat(packet.virtualAddress()).isEqualTo(0x0102030405060708L);
        assertThat(packet.remoteKey()).isEqualTo(0x11223344);
        assertThat(packet.dmaLength()).isEqualTo(4096);
    }

    @Test
    void opcodesHaveTheirRoceCodes() {
        assertThat(PacketOpcode.WRITE_FIRST.code()).isEqualTo(0x06);
        assertThat(PacketOpcode.WRITE_MIDDLE.code()).isEqualTo(0x07);
        assertThat(PacketOpcode.WRITE_LAST.code()).isEqualTo(0x08);
        assertThat(PacketOpcode.WRITE_ONLY.code()).isEqualTo(0x0A);
        assertThat(PacketOpcode.READ_REQUEST.code()).isEqualTo(0x0C);
        assertThat(PacketOpcode.READ_RESPONSE_FIRST.code()).isEqualTo(0x0D);
        assertThat(PacketOpcode.READ_RESPONSE_MIDDLE.code()).isEqualTo(0x0E);
        assertThat(PacketOpcode.READ_RESPONSE_LAST.code()).isEqualTo(0x0F);
        assertThat(PacketOpcode.READ_RESPONSE_ONLY.code()).isEqualTo(0x10);
        assertThat(PacketOpcode.ACKNOWLEDGE.code()).isEqualTo(0x11);
        assertThat(PacketOpcode.CNP.code()).isEqualTo(0x81);
        for (PacketOpcode opcode : PacketOpcode.values()) {
            assertThat(PacketOpcode.ofCode(opcode.code())).isEqualTo(opcode);
        }
    }

    @Test
    void ackCarriesAethAndFlags() {
        packet.begin(buffer, 0, PacketOpcode.ACKNOWLEDGE, 7, 0xFFFFFF)
                .aeth(PacketDescriptor.SYNDROME_NAK_SEQUENCE, 0x000102)
                .ackRequest(true)
                .forwardCongestion(true)
                .seal(0);
        assertThat(buffer.getInt(12)).isEqualTo(0x60000102);
        assertThat(buffer.getInt(8)).as("AckReq, then the 24-bit PSN").isEqualTo(0x80FFFFFF);
        assertThat(buffer.get(4) & 0xFF).isEqualTo(0x80);
        assertThat(packet.wrap(buffer, 0, packet.length()).verify(1024)).isTrue();
        assertThat(packet.psn()).isEqualTo(0xFFFFFF);
        assertThat(packet.ackRequest()).isTrue();
        assertThat(packet.forwardCongestion()).isTrue();
        assertThat(packet.syndrome()).isEqualTo(PacketDescriptor.SYNDROME_NAK_SEQUENCE);
    }

    @Test
    void corruptionOrBadLengthsFailVerification() {
        packet.begin(buffer, 0, PacketOpcode.WRITE_MIDDLE, 1, 2);
        buffer.put(12, new byte[100]);
        packet.seal(100);
        int length = packet.length();
        assertThat(packet.wrap(buffer, 0, length).verify(1024)).isTrue();
        buffer.put(50, (byte) 1);
        assertThat(packet.wrap(buffer, 0, length).verify(1024)).isFalse();
        buffer.put(50, (byte) 0);
        assertThat(packet.wrap(buffer, 0, length).verify(64))
                .as("payload above the MTU")
                .isFalse();
        buffer.put(0, (byte) 0x55);
        assertThat(packet.wrap(buffer, 0, length).verify(1024))
                .as("unknown opcode")
                .isFalse();
    }

    @Test
    void readResponseIsRewrittenIntoWriteAroundAnUntouchedPayload() {
        int start = PacketDescriptor.HEADROOM_LENGTH;
        packet.begin(buffer, start, PacketOpcode.READ_RESPONSE_FIRST, 3, 100).aeth(PacketDescriptor.SYNDROME_ACK, 0);
        int payloadAt = start + 16;
        for (int i = 0; i < 1024; i++) {
            buffer.put(payloadAt + i, (byte) i);
        }
        packet.seal(1024);
        packet.wrap(buffer, start, packet.length());
        assertThat(packet.verify(1024)).isTrue();

        int payload = packet.rewriteHeader(PacketOpcode.WRITE_FIRST, 9, Psn.add(100, Psn.MASK));
        packet.reth(0x4000, 5, 4096).seal(payload);

        assertThat(payload).isEqualTo(1024);
        assertThat(packet.start()).isZero();
        assertThat(packet.payloadOffset()).as("payload not moved").isEqualTo(payloadAt);
        assertThat(packet.wrap(buffer, 0, packet.length()).verify(1024)).isTrue();
        assertThat(packet.opcode()).isEqualTo(PacketOpcode.WRITE_FIRST);
        assertThat(packet.psn()).isEqualTo(99);
        assertThat(packet.destinationQp()).isEqualTo(9);
        assertThat(packet.dmaLength()).isEqualTo(4096);
        assertThat(buffer.get(payloadAt + 77)).isEqualTo((byte) 77);
    }

    @Test
    void psnArithmeticWrapsAt24Bits() {
        assertThat(Psn.add(0xFFFFFF, 1)).isZero();
        assertThat(Psn.add(0xFFFFFE, 5)).isEqualTo(3);
        assertThat(Psn.add(2, -3)).isEqualTo(0xFFFFFF);
        assertThat(Psn.distance(3, 0xFFFFFE)).isEqualTo(5);
        assertThat(Psn.distance(0xFFFFFE, 3)).isEqualTo(-5);
        assertThat(Psn.inRange(1, 0xFFFFFF, 3)).isTrue();
        assertThat(Psn.inRange(2, 0xFFFFFF, 3)).isFalse();
        assertThat(PacketOpcode.segment(true, 0, 1)).isEqualTo(PacketOpcode.WRITE_ONLY);
        assertThat(PacketOpcode.segment(false, 2, 3)).isEqualTo(PacketOpcode.READ_RESPONSE_LAST);
        assertThat(PacketDescriptor.packetCount(1025, 1024)).isEqualTo(2);
    }
}
