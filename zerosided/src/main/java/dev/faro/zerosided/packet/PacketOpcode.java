package dev.faro.zerosided.packet;

/**
 * The opcodes of the packet fabric: the RoCEv2 RC opcodes the zero-sided protocol uses, with their InfiniBand codes
 * (IBTA spec, table 38: RC = {@code 0b000xxxxx}), plus RoCEv2's CNP and the doorbell, which lives in the
 * manufacturer-specific range ({@code 0xC0}–{@code 0xFF}).
 *
 * <p>Each opcode says which extension header follows the 12-byte BTH (see {@link PacketDescriptor}) and whether a
 * payload does.
 */
public enum PacketOpcode {
    /** RDMA WRITE, first packet of several: RETH, payload. */
    WRITE_FIRST(0x06, PacketDescriptor.RETH_LENGTH, true),
    /** RDMA WRITE, middle packet: payload only. */
    WRITE_MIDDLE(0x07, 0, true),
    /** RDMA WRITE, last packet of several: payload only. */
    WRITE_LAST(0x08, 0, true),
    /** RDMA WRITE in one packet: RETH, payload. */
    WRITE_ONLY(0x0A, PacketDescriptor.RETH_LENGTH, true),
    /** RDMA READ request: RETH (address, key, length), no payload; consumes one PSN per response packet. */
    READ_REQUEST(0x0C, PacketDescriptor.RETH_LENGTH, false),
    /** READ response, first of several: AETH, payload. */
    READ_RESPONSE_FIRST(0x0D, PacketDescriptor.AETH_LENGTH, true),
    /** READ response, middle: payload only. */
    READ_RESPONSE_MIDDLE(0x0E, 0, true),
    /** READ response, last of several: AETH, payload. */
    READ_RESPONSE_LAST(0x0F, PacketDescriptor.AETH_LENGTH, true),
    /** READ response in one packet: AETH, payload. */
    READ_RESPONSE_ONLY(0x10, PacketDescriptor.AETH_LENGTH, true),
    /** ACK or NAK: AETH (syndrome, MSN); its PSN acknowledges every request packet up to it. */
    ACKNOWLEDGE(0x11, PacketDescriptor.AETH_LENGTH, false),
    /** RoCEv2 congestion notification packet (opcode {@code 0x81}): 16 reserved bytes. */
    CNP(0x81, PacketDescriptor.CNP_RESERVED_LENGTH, false),
    /** A processing unit's pointer report to the switch: DBETH (word address, value). Not a RoCE opcode. */
    DOORBELL(0xC0, PacketDescriptor.DBETH_LENGTH, false);

    private static final PacketOpcode[] BY_CODE = new PacketOpcode[256];

    static {
        for (PacketOpcode opcode : values()) {
            BY_CODE[opcode.code] = opcode;
        }
    }

    private final int code;
    private final int extensionLength;
    private final boolean hasPayload;

    PacketOpcode(int code, int extensionLength, boolean hasPayload) {
        this.code = code;
        this.extensionLength = extensionLength;
        this.hasPayload = hasPayload;
    }

    /** The opcode byte on the wire. */
    public int code() {
        return code;
    }

    /** Bytes of extension header (RETH, AETH, DBETH, CNP padding) between the BTH and the payload. */
    public int extensionLength() {
        return extensionLength;
    }

    /** Offset of the payload from the start of the packet. */
    public int headerLength() {
        return PacketDescriptor.BTH_LENGTH + extensionLength;
    }

    public boolean hasPayload() {
        return hasPayload;
    }

    public boolean isReadResponse() {
        return this == READ_RESPONSE_FIRST
                || this == READ_RESPONSE_MIDDLE
                || this == READ_RESPONSE_LAST
                || this == READ_RESPONSE_ONLY;
    }

    public boolean isWrite() {
        return this == WRITE_FIRST || this == WRITE_MIDDLE || this == WRITE_LAST || this == WRITE_ONLY;
    }

    /** Whether this packet ends a message (LAST or ONLY, of a WRITE or a READ response). */
    public boolean endsMessage() {
        return this == WRITE_LAST || this == WRITE_ONLY || this == READ_RESPONSE_LAST || this == READ_RESPONSE_ONLY;
    }

    /** Whether this packet starts a message (FIRST or ONLY, of a WRITE or a READ response). */
    public boolean startsMessage() {
        return this == WRITE_FIRST || this == WRITE_ONLY || this == READ_RESPONSE_FIRST || this == READ_RESPONSE_ONLY;
    }

    /**
     * The WRITE opcode the switch rewrites this READ response opcode into (FIRST to FIRST, ..., ONLY to ONLY).
     *
     * @throws IllegalStateException if this is not a READ response
     */
    public PacketOpcode toWrite() {
        return switch (this) {
            case READ_RESPONSE_FIRST -> WRITE_FIRST;
            case READ_RESPONSE_MIDDLE -> WRITE_MIDDLE;
            case READ_RESPONSE_LAST -> WRITE_LAST;
            case READ_RESPONSE_ONLY -> WRITE_ONLY;
            default -> throw new IllegalStateException("not a READ response: " + this);
        };
    }

    /** The WRITE or READ-response opcode for packet {@code index} of a message of {@code count} packets. */
    public static PacketOpcode segment(boolean write, int index, int count) {
        if (count == 1) {
            return write ? WRITE_ONLY : READ_RESPONSE_ONLY;
        }
        if (index == 0) {
            return write ? WRITE_FIRST : READ_RESPONSE_FIRST;
        }
        if (index == count - 1) {
            return write ? WRITE_LAST : READ_RESPONSE_LAST;
        }
        return write ? WRITE_MIDDLE : READ_RESPONSE_MIDDLE;
    }

    /** The opcode with wire code {@code code}, or null when there is none. */
    public static PacketOpcode ofCode(int code) {
        return code < 0 || code > 255 ? null : BY_CODE[code];
    }
}
