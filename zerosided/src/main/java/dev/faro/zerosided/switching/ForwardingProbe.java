package dev.faro.zerosided.switching;

import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.Packet;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.packet.Psn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Measures the switch's own forwarding rate: one switch runs a 1:1 flow whose link is this probe, which plays a perfect
 * network and two perfect NICs with no cost of their own beyond building each answer: every READ is answered at once
 * with its responses, every WRITE ACKed at once, the producer always has items and the consumer always has room. What
 * remains is the switch's loop (verify, rewrite, PSN offset, ICRC, the five steps), so the rate is an upper bound for
 * any flow through this switch on this machine, against which the end-to-end figures are read.
 *
 * <p>Benchmark code; one thread.
 */
public final class ForwardingProbe implements PacketLink {

    private static final int SWITCH_PORT = 1;
    private static final int PRODUCER_PORT = 2;
    private static final int CONSUMER_PORT = 3;
    private static final long BASE_ADDRESS = 1L << 40;
    private static final ValueLayout.OfLong WIRE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final int mtuBytes;
    private final Packet view = new Packet();
    private final Packet answer = new Packet();
    private int producerSwitchQp;
    private int consumerSwitchQp;

    // the READ being answered
    private int responsePsn;
    private int responsesLeft;
    private int responseIndex;
    private int responseCount;
    private int responseBytes;

    // one pending ACK or poll answer at most (the switch has one operation outstanding per connection)
    private final int[] pendingKind = new int[8];
    private final int[] pendingPsn = new int[8];
    private final int[] pendingQp = new int[8];
    private final long[] pendingValue = new long[8];
    private int pendingCount;
    private long consumerHead;
    private long payloadBytes;
    private int lastSource;

    private ForwardingProbe(int mtuBytes) {
        this.mtuBytes = mtuBytes;
    }

    /**
     * Runs a switch with {@code config} over a probe for about {@code durationNs} and returns its forwarding rate.
     *
     * @param itemBytes the flow's item size
     */
    public static Result measure(SwitchConfig config, int itemBytes, long durationNs) {
        ForwardingProbe probe = new ForwardingProbe(config.mtuBytes());
        ZeroSidedSwitch zeroSidedSwitch = new ZeroSidedSwitch(probe, config);
        int capacity = Math.max(1, (4 << 20) / itemBytes);
        probe.producerSwitchQp = zeroSidedSwitch
                .control()
                .addEndpoint(new SwitchEndpoint(PRODUCER_PORT, 0, 1, BASE_ADDRESS, capacity, itemBytes, true));
        probe.consumerSwitchQp = zeroSidedSwitch
                .control()
                .addEndpoint(new SwitchEndpoint(CONSUMER_PORT, 0, 2, BASE_ADDRESS, capacity, itemBytes, false));
        zeroSidedSwitch.control().installOneToOne(probe.producerSwitchQp, probe.consumerSwitchQp);
        for (int i = 0; i < 1000; i++) {
            zeroSidedSwitch.doWork(); // warm up
        }
        long packets0 = zeroSidedSwitch.statistics().packetsForwarded();
        long bytes0 = probe.payloadBytes;
        long start = System.nanoTime();
        long end = start + durationNs;
        long now;
        do {
            for (int i = 0; i < 256; i++) {
                zeroSidedSwitch.doWork();
            }
            now = System.nanoTime();
        } while (now < end);
        long packets = zeroSidedSwitch.statistics().packetsForwarded() - packets0;
        double seconds = (now - start) / 1e9;
        return new Result(packets / seconds, (probe.payloadBytes - bytes0) / seconds, zeroSidedSwitch.statistics());
    }

    /**
     * What {@link #measure} found.
     *
     * @param packetsPerSecond READ responses rewritten into WRITEs and sent per second
     * @param payloadBytesPerSecond the payload they carried
     * @param statistics the switch's counters at the end
     */
    public record Result(double packetsPerSecond, double payloadBytesPerSecond, SwitchStatistics statistics) {}

    @Override
    public int port() {
        return SWITCH_PORT;
    }

    @Override
    public void send(ByteBuffer buffer, int offset, int length, int destinationPort) {
        view.wrap(buffer, offset, length);
        PacketOpcode opcode = view.opcode();
        int switchQp = destinationPort == PRODUCER_PORT ? producerSwitchQp : consumerSwitchQp;
        if (opcode == PacketOpcode.READ_REQUEST) {
            int dmaLength = view.dmaLength();
            if (dmaLength == Long.BYTES && (view.virtualAddress() - BASE_ADDRESS) < 256) {
                // a poll: the producer always has more, the consumer has taken everything
                long value = destinationPort == PRODUCER_PORT ? 1L << 50 : consumerHead;
                pending(PacketOpcode.READ_RESPONSE_ONLY.code(), view.psn(), switchQp, value);
            } else {
                responsePsn = view.psn();
                responseBytes = dmaLength;
                responseCount = PacketDescriptor.packetCount(dmaLength, mtuBytes);
                responsesLeft = responseCount;
                responseIndex = 0;
            }
        } else if (opcode.isWrite()) {
            if (opcode == PacketOpcode.WRITE_ONLY
                    && view.dmaLength() == Long.BYTES
                    && view.virtualAddress() == BASE_ADDRESS
                    && destinationPort == CONSUMER_PORT) {
                consumerHead = MemorySegment.ofBuffer(buffer).get(WIRE_LONG, view.payloadOffset() - 0L);
            } else {
                payloadBytes += view.payloadLength();
            }
            if (opcode.endsMessage()) {
                pending(PacketOpcode.ACKNOWLEDGE.code(), view.psn(), switchQp, 0);
            }
        }
    }

    private void pending(int kind, int psn, int qp, long value) {
        pendingKind[pendingCount] = kind;
        pendingPsn[pendingCount] = psn;
        pendingQp[pendingCount] = qp;
        pendingValue[pendingCount] = value;
        pendingCount++;
    }

    @Override
    public int receive(ByteBuffer buffer, int offset) {
        if (pendingCount > 0) {
            pendingCount--;
            int qp = pendingQp[pendingCount];
            lastSource = qp == producerSwitchQp ? PRODUCER_PORT : CONSUMER_PORT;
            if (pendingKind[pendingCount] == PacketOpcode.ACKNOWLEDGE.code()) {
                answer.begin(buffer, offset, PacketOpcode.ACKNOWLEDGE, qp, pendingPsn[pendingCount])
                        .aeth(PacketDescriptor.SYNDROME_ACK, 0)
                        .seal(0);
            } else {
                answer.begin(buffer, offset, PacketOpcode.READ_RESPONSE_ONLY, qp, pendingPsn[pendingCount])
                        .aeth(PacketDescriptor.SYNDROME_ACK, 0);
                buffer.order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(offset + PacketOpcode.READ_RESPONSE_ONLY.headerLength(), pendingValue[pendingCount])
                        .order(ByteOrder.BIG_ENDIAN);
                answer.seal(Long.BYTES);
            }
            return answer.length();
        }
        if (responsesLeft > 0) {
            PacketOpcode opcode = PacketOpcode.segment(false, responseIndex, responseCount);
            int payload = Math.min(mtuBytes, responseBytes - responseIndex * mtuBytes);
            answer.begin(buffer, offset, opcode, producerSwitchQp, Psn.add(responsePsn, responseIndex));
            if (opcode.extensionLength() == PacketDescriptor.AETH_LENGTH) {
                answer.aeth(PacketDescriptor.SYNDROME_ACK, 0);
            }
            answer.seal(payload);
            responseIndex++;
            responsesLeft--;
            lastSource = PRODUCER_PORT;
            return answer.length();
        }
        return NOTHING;
    }

    @Override
    public int sourcePort() {
        return lastSource;
    }

    @Override
    public long droppedDatagrams() {
        return 0;
    }

    @Override
    public void close() {}
}
