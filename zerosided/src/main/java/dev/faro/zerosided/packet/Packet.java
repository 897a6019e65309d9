package dev.faro.zerosided.packet;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A reusable view of one packet in a {@link ByteBuffer} (see {@link PacketDescriptor} for the layout): the packet
 * starts at {@link #start()} and is {@link #length()} bytes long, ICRC included. Builders write a header with
 * {@link #begin}, the extension fields and the payload, then {@link #seal} it; receivers {@link #wrap} and
 * {@link #verify} it.
 *
 * <p>Data path: allocation-free; one instance per thread.
 */
public final class Packet {

    private final CRC32C crc = new CRC32C();
    private ByteBuffer buffer;
    private int start;
    private int length;

    /** Views the packet of {@code length} bytes at {@code start} of {@code buffer}. */
    public Packet wrap(ByteBuffer buffer, int start, int length) {
        this.buffer = buffer;
        this.start = start;
        this.length = length;
        return this;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int start() {
        return start;
    }

    /** The packet's length on the wire, ICRC included (valid after {@link #seal} or {@link #wrap}). */
    public int length() {
        return length;
    }

    /**
     * Writes a BTH at {@code start}: {@code opcode}, the default P_Key, {@code destinationQp}, {@code psn}, FECN,
     * BECN and AckReq clear. The packet's length becomes its header's; {@link #seal} adds payload and ICRC.
     */
    public Packet begin(ByteBuffer buffer, int start, PacketOpcode opcode, int destinationQp, int psn) {
        this.buffer = buffer;
        this.start = start;
        buffer.put(start + PacketDescriptor.OPCODE_OFFSET, (byte) opcode.code());
        buffer.put(start + PacketDescriptor.FLAGS_OFFSET, (byte) PacketDescriptor.TRANSPORT_VERSION);
        buffer.putShort(start + PacketDescriptor.PARTITION_KEY_OFFSET, (short) PacketDescriptor.DEFAULT_PARTITION_KEY);
        buffer.putInt(start + PacketDescriptor.DESTINATION_QP_OFFSET, destinationQp & Psn.MASK);
        buffer.putInt(start + PacketDescriptor.PSN_OFFSET, psn & Psn.MASK);
        this.length = opcode.headerLength();
        return this;
    }

    /**
     * Rewrites this packet's BTH in place for a new opcode, keeping the payload where it is: the header moves so that
     * it ends where the payload starts (READ responses carry an AETH, WRITE_FIRST/ONLY a RETH), which needs
     * {@link PacketDescriptor#HEADROOM_LENGTH} bytes before the packet. Fields other than the opcode, DestQP and PSN
     * (RETH, AETH) must be written afterwards; the ICRC by {@link #seal}.
     *
     * @return the payload length
     */
    public int rewriteHeader(PacketOpcode opcode, int destinationQp, int psn) {
        int payloadStart = start + opcode().headerLength();
        int payloadLength = length - opcode().headerLength() - PacketDescriptor.ICRC_LENGTH;
        begin(buffer, payloadStart - opcode.headerLength(), opcode, destinationQp, psn);
        this.length = opcode.headerLength() + payloadLength;
        return payloadLength;
    }

    /** Writes the payload length into the view (the bytes are already there) and appends the ICRC. */
    public Packet seal(int payloadLength) {
        this.length = opcode().headerLength() + payloadLength;
        int icrc = computeIcrc();
        buffer.putInt(start + length, icrc);
        this.length += PacketDescriptor.ICRC_LENGTH;
        return this;
    }

    /**
     * Whether the packet is well formed: a known opcode, the transport version, long enough for its headers, its
     * payload within {@code mtuBytes}, its ICRC matching.
     */
    public boolean verify(int mtuBytes) {
        if (length < PacketDescriptor.BTH_LENGTH + PacketDescriptor.ICRC_LENGTH) {
            return false;
        }
        PacketOpcode opcode = opcode();
        if (opcode == null
                || (buffer.get(start + PacketDescriptor.FLAGS_OFFSET) & 0x0F) != PacketDescriptor.TRANSPORT_VERSION) {
            return false;
        }
        int payload = length - opcode.headerLength() - PacketDescriptor.ICRC_LENGTH;
        if (payload < 0 || payload > mtuBytes || (!opcode.hasPayload() && payload != 0)) {
            return false;
        }
        int stored = buffer.getInt(start + length - PacketDescriptor.ICRC_LENGTH);
        length -= PacketDescriptor.ICRC_LENGTH;
        int computed = computeIcrc();
        length += PacketDescriptor.ICRC_LENGTH;
        return stored == computed;
    }

    private int computeIcrc() {
        crc.reset();
        int savedPosition = buffer.position();
        int savedLimit = buffer.limit();
        buffer.limit(start + length).position(start);
        crc.update(buffer);
        buffer.limit(savedLimit).position(savedPosition);
        return (int) crc.getValue();
    }

    /** The opcode, or null for a code this fabric does not know. */
    public PacketOpcode opcode() {
        return PacketOpcode.ofCode(buffer.get(start + PacketDescriptor.OPCODE_OFFSET) & 0xFF);
    }

    public int destinationQp() {
        return buffer.getInt(start + PacketDescriptor.DESTINATION_QP_OFFSET) & Psn.MASK;
    }

    public int psn() {
        return buffer.getInt(start + PacketDescriptor.PSN_OFFSET) & Psn.MASK;
    }

    public boolean ackRequest() {
        return buffer.get(start + PacketDescriptor.PSN_OFFSET) < 0;
    }

    public Packet ackRequest(boolean value) {
        int word = buffer.getInt(start + PacketDescriptor.PSN_OFFSET);
        buffer.putInt(start + PacketDescriptor.PSN_OFFSET, value ? word | 0x8000_0000 : word & 0x7FFF_FFFF);
        return this;
    }

    /** FECN: the packet met congestion on its way (ECN marked). */
    public boolean forwardCongestion() {
        return (buffer.get(start + PacketDescriptor.CONGESTION_OFFSET) & 0x80) != 0;
    }

    public Packet forwardCongestion(boolean value) {
        int index = start + PacketDescriptor.CONGESTION_OFFSET;
        byte flags = buffer.get(index);
        buffer.put(index, (byte) (value ? flags | 0x80 : flags & 0x7F));
        return this;
    }

    /** RETH or DBETH: the virtual address. */
    public long virtualAddress() {
        return buffer.getLong(start + PacketDescriptor.RETH_VIRTUAL_ADDRESS_OFFSET);
    }

    /** Writes a RETH. */
    public Packet reth(long virtualAddress, int remoteKey, int dmaLength) {
        buffer.putLong(start + PacketDescriptor.RETH_VIRTUAL_ADDRESS_OFFSET, virtualAddress);
        buffer.putInt(start + PacketDescriptor.RETH_REMOTE_KEY_OFFSET, remoteKey);
        buffer.putInt(start + PacketDescriptor.RETH_DMA_LENGTH_OFFSET, dmaLength);
        return this;
    }

    public int remoteKey() {
        return buffer.getInt(start + PacketDescriptor.RETH_REMOTE_KEY_OFFSET);
    }

    public int dmaLength() {
        return buffer.getInt(start + PacketDescriptor.RETH_DMA_LENGTH_OFFSET);
    }

    /** Writes an AETH. */
    public Packet aeth(int syndrome, int messageSequence) {
        buffer.putInt(start + PacketDescriptor.AETH_OFFSET, syndrome << 24 | messageSequence & Psn.MASK);
        return this;
    }

    public int syndrome() {
        return buffer.get(start + PacketDescriptor.AETH_OFFSET) & 0xFF;
    }

    /** Writes a DBETH. */
    public Packet dbeth(long virtualAddress, long value) {
        buffer.putLong(start + PacketDescriptor.DBETH_VIRTUAL_ADDRESS_OFFSET, virtualAddress);
        buffer.putLong(start + PacketDescriptor.DBETH_VALUE_OFFSET, value);
        return this;
    }

    public long doorbellValue() {
        return buffer.getLong(start + PacketDescriptor.DBETH_VALUE_OFFSET);
    }

    /** Zeroes the CNP's reserved bytes. */
    public Packet cnpReserved() {
        for (int i = 0; i < PacketDescriptor.CNP_RESERVED_LENGTH; i++) {
            buffer.put(start + PacketDescriptor.BTH_LENGTH + i, (byte) 0);
        }
        return this;
    }

    /** Offset in {@link #buffer()} of the payload's first byte. */
    public int payloadOffset() {
        return start + opcode().headerLength();
    }

    /** Payload bytes of a verified or sealed packet. */
    public int payloadLength() {
        return length - opcode().headerLength() - PacketDescriptor.ICRC_LENGTH;
    }
}
