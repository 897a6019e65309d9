package dev.faro.zerosided.packet;

/**
 * The byte layout of a packet of the packet fabric: the UDP payload of one datagram, laid out as the RoCEv2 UDP
 * payload (BTH, extension header, payload, ICRC), big-endian (network order) throughout.
 *
 * <pre>
 *  BTH, 12 B, every packet
 *  0               8               16              24             32
 *  +---------------+-+-+---+-------+-------------------------------+
 *  |    opcode     |S|M|pad| TVer  |            P_Key              |  0
 *  +-+-+-----------+---------------+-------------------------------+
 *  |F|B|  resv 6   |                  DestQP (24)                  |  4
 *  +-+-------------+-----------------------------------------------+
 *  |A|  resv 7     |                    PSN (24)                   |  8
 *  +---------------+-----------------------------------------------+
 *  RETH, 16 B: READ_REQUEST, WRITE_FIRST, WRITE_ONLY
 *  |                     virtual address (64)                      | 12
 *  |                                                               |
 *  |                        R_Key (32)                             | 20
 *  |                     DMA length (32)                           | 24
 *  AETH, 4 B: ACKNOWLEDGE, READ_RESPONSE_FIRST / LAST / ONLY
 *  |   syndrome    |                     MSN (24)                  | 12
 *  DBETH, 16 B: DOORBELL (not RoCE)
 *  |             virtual address of the pointer word (64)          | 12
 *  |                       new value (64)                          | 20
 *  CNP: 16 reserved bytes
 *  +---------------------------------------------------------------+
 *  |  payload (WRITE and READ response only), at most the MTU      |
 *  +---------------------------------------------------------------+
 *  |  ICRC (32): CRC-32C of every byte before it                   |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>F is FECN (set by a congested switch port: ECN), B is BECN, A is AckReq. RoCEv2's ICRC also covers masked IP and
 * UDP header fields; this fabric has none of its own (UDP and IP are the host's), so it covers the BTH onwards. The
 * writer is whoever sends the packet (a NIC, the switch, a doorbell); the reader its receiver. A packet whose ICRC
 * does not match is dropped, as a NIC drops it.
 */
public final class PacketDescriptor {

    public static final int OPCODE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int PARTITION_KEY_OFFSET = 2;
    /** Byte holding FECN (bit 7) and BECN (bit 6). */
    public static final int CONGESTION_OFFSET = 4;
    /** DestQP: the low 24 bits of the 32-bit word at offset 4. */
    public static final int DESTINATION_QP_OFFSET = 4;
    /** PSN: the low 24 bits of the 32-bit word at offset 8, whose top bit is AckReq. */
    public static final int PSN_OFFSET = 8;

    public static final int BTH_LENGTH = 12;

    public static final int RETH_VIRTUAL_ADDRESS_OFFSET = BTH_LENGTH;
    public static final int RETH_REMOTE_KEY_OFFSET = BTH_LENGTH + 8;
    public static final int RETH_DMA_LENGTH_OFFSET = BTH_LENGTH + 12;
    public static final int RETH_LENGTH = 16;

    public static final int AETH_OFFSET = BTH_LENGTH;
    public static final int AETH_LENGTH = 4;

    public static final int DBETH_VIRTUAL_ADDRESS_OFFSET = BTH_LENGTH;
    public static final int DBETH_VALUE_OFFSET = BTH_LENGTH + 8;
    public static final int DBETH_LENGTH = 16;

    public static final int CNP_RESERVED_LENGTH = 16;

    public static final int ICRC_LENGTH = 4;

    /** The default P_Key (full-member default partition). */
    public static final int DEFAULT_PARTITION_KEY = 0xFFFF;

    /** Transport header version (TVer) this fabric writes and accepts. */
    public static final int TRANSPORT_VERSION = 0;

    /** AETH syndrome: ACK (credit field unused, "unlimited"). */
    public static final int SYNDROME_ACK = 0x1F;
    /** AETH syndrome: NAK, PSN sequence error; the PSN field carries the expected PSN. */
    public static final int SYNDROME_NAK_SEQUENCE = 0x60;
    /** AETH syndrome: NAK, remote access error (key, bounds or rights). */
    public static final int SYNDROME_NAK_REMOTE_ACCESS = 0x62;

    /** The default MTU (largest payload of one packet), RoCEv2's default as in the paper. */
    public static final int DEFAULT_MTU_BYTES = 1024;

    /** The largest header (BTH + RETH) plus ICRC: a packet buffer holds the MTU plus this. */
    public static final int MAXIMUM_OVERHEAD_LENGTH = BTH_LENGTH + RETH_LENGTH + ICRC_LENGTH;

    /**
     * Room before a received packet's first byte, so that a READ response (BTH + AETH) can be rewritten into a WRITE
     * (BTH + RETH) in place, the new header written in front of the untouched payload.
     */
    public static final int HEADROOM_LENGTH = RETH_LENGTH - AETH_LENGTH;

    private PacketDescriptor() {}

    /**
     * The size of a packet buffer for {@code mtuBytes}: headroom, the largest header, the MTU and the ICRC.
     *
     * @throws IllegalArgumentException if the MTU is not a power of two in [256, 4096] (RoCE's choices)
     */
    public static int bufferLength(int mtuBytes) {
        checkMtu(mtuBytes);
        return HEADROOM_LENGTH + MAXIMUM_OVERHEAD_LENGTH + mtuBytes;
    }

    /** Fails unless {@code mtuBytes} is one of RoCE's MTUs: 256, 512, 1024, 2048 or 4096. */
    public static void checkMtu(int mtuBytes) {
        if (mtuBytes < 256 || mtuBytes > 4096 || Integer.bitCount(mtuBytes) != 1) {
            throw new IllegalArgumentException("mtu must be 256, 512, 1024, 2048 or 4096: mtuBytes=" + mtuBytes);
        }
    }

    /** The number of packets a message of {@code lengthBytes} takes at {@code mtuBytes} (at least one). */
    public static int packetCount(long lengthBytes, int mtuBytes) {
        return lengthBytes == 0 ? 1 : (int) ((lengthBytes + mtuBytes - 1) / mtuBytes);
    }
}
