package dev.faro.zerosided.nic;

import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.Packet;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.packet.Psn;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The RC responder of a processing unit's RDMA NIC, simulated: registered memory, queue pairs connected to one peer
 * each (the switch), and an agent ({@link #doWork()}) that plays the NIC on its own thread, so the processing unit's
 * threads never take part in communication. It
 *
 * <ul>
 *   <li>serves READ requests by segmenting the region into READ responses of at most the MTU, paced (at most
 *       {@link #responseBurst()} packets per queue pair per duty cycle; a CNP halves the burst, which then recovers),
 *       and re-serves a duplicate READ (RC: a responder re-executes a retried READ);
 *   <li>applies WRITE packets only in PSN order: a packet at the expected PSN is applied (a message's last 8-byte
 *       word last, with release semantics, so a pointer WRITE is seen after everything before it), ACKed at the end of
 *       its message or when it asks (AckReq); a duplicate is re-ACKed with the last applied PSN and not applied again;
 *       a packet beyond the expected PSN is dropped and the gap NAKed once (sequence error) until the expected one
 *       arrives;
 *   <li>NAKs a READ or WRITE outside the region its key names (remote access error) and changes nothing.
 * </ul>
 *
 * <p>Set-up ({@link #register}, {@link #createQueuePair}, {@link #connect}) happens before the agent serves the
 * queue pair concerned; each publishes with a volatile write the agent reads. Data path ({@link #doWork()}):
 * allocation-free.
 */
public final class SimulatedRcNic implements AutoCloseable {

    /** Queue pairs per NIC. */
    public static final int MAXIMUM_QUEUE_PAIRS = 4096;

    /** Regions per NIC. */
    public static final int MAXIMUM_REGIONS = 1024;

    /** Datagrams received per duty cycle at most. */
    private static final int RECEIVE_LIMIT = 64;

    /** READ response packets per queue pair per duty cycle, before congestion lowers it. */
    static final int DEFAULT_RESPONSE_BURST = 32;

    /** Duty cycles after a CNP before the burst grows back by one. */
    private static final int BURST_RECOVERY_CYCLES = 64;

    private static final int ADDRESS_SHIFT = 40;

    private static final ValueLayout.OfLong WIRE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private static final VarHandle MEMORY_LONG =
            ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();

    private final PacketLink link;
    private final int mtuBytes;
    private final Packet packet = new Packet();
    private final Packet reply = new Packet();
    private final ByteBuffer receiveBuffer;
    private final MemorySegment receiveSegment;
    private final ByteBuffer sendBuffer;
    private final MemorySegment sendSegment;
    private final NicCounters counters = new NicCounters();

    private final MemorySegment[] regions = new MemorySegment[MAXIMUM_REGIONS];
    private volatile int regionCount;

    // Queue pair state: index = QPN. Written by set-up before the QP connects, then by the agent only.
    private final int[] peerPort = new int[MAXIMUM_QUEUE_PAIRS];
    private final int[] peerQp = new int[MAXIMUM_QUEUE_PAIRS];
    private final int[] expectedPsn = new int[MAXIMUM_QUEUE_PAIRS];
    private final boolean[] nakSent = new boolean[MAXIMUM_QUEUE_PAIRS];
    private final int[] messageSequence = new int[MAXIMUM_QUEUE_PAIRS];
    private final MemorySegment[] writeRegion = new MemorySegment[MAXIMUM_QUEUE_PAIRS];
    private final long[] writeOffset = new long[MAXIMUM_QUEUE_PAIRS];
    private final long[] writeRemaining = new long[MAXIMUM_QUEUE_PAIRS];
    // The READ being answered on each QP.
    private final MemorySegment[] responseRegion = new MemorySegment[MAXIMUM_QUEUE_PAIRS];
    private final long[] responseOffset = new long[MAXIMUM_QUEUE_PAIRS];
    private final int[] responseLength = new int[MAXIMUM_QUEUE_PAIRS];
    private final int[] responseFirstPsn = new int[MAXIMUM_QUEUE_PAIRS];
    private final int[] responseCount = new int[MAXIMUM_QUEUE_PAIRS];
    private final int[] responseNext = new int[MAXIMUM_QUEUE_PAIRS];
    private final boolean[] connected = new boolean[MAXIMUM_QUEUE_PAIRS];
    private volatile int queuePairCount;

    private int responseBurst = DEFAULT_RESPONSE_BURST;
    private int cyclesSinceCongestion;

    /** Creates a NIC sending and receiving on {@code link} (which it then owns) with packets of {@code mtuBytes}. */
    public SimulatedRcNic(PacketLink link, int mtuBytes) {
        this.link = link;
        this.mtuBytes = mtuBytes;
        int length = PacketDescriptor.bufferLength(mtuBytes);
        this.receiveBuffer = ByteBuffer.allocateDirect(length);
        this.receiveSegment = MemorySegment.ofBuffer(receiveBuffer);
        this.sendBuffer = ByteBuffer.allocateDirect(length);
        this.sendSegment = MemorySegment.ofBuffer(sendBuffer);
    }

    /** This NIC's port on the packet fabric. */
    public int port() {
        return link.port();
    }

    public int mtuBytes() {
        return mtuBytes;
    }

    public NicCounters counters() {
        return counters;
    }

    /** The READ response packets sent per queue pair per duty cycle now (lowered by CNPs). */
    public int responseBurst() {
        return responseBurst;
    }

    /**
     * Registers {@code segment} for remote READ and WRITE. Any thread, before peers use the returned key.
     *
     * @throws IllegalStateException when {@link #MAXIMUM_REGIONS} are registered
     */
    public synchronized RegisteredRegion register(MemorySegment segment) {
        int index = regionCount;
        if (index == MAXIMUM_REGIONS) {
            throw new IllegalStateException("too many regions: maximum=" + MAXIMUM_REGIONS);
        }
        regions[index] = segment;
        regionCount = index + 1;
        return new RegisteredRegion(index + 1, (long) (index + 1) << ADDRESS_SHIFT, segment.byteSize(), segment);
    }

    /** Creates a queue pair and returns its number. Any thread. */
    public synchronized int createQueuePair() {
        int qpn = queuePairCount;
        if (qpn == MAXIMUM_QUEUE_PAIRS) {
            throw new IllegalStateException("too many queue pairs: maximum=" + MAXIMUM_QUEUE_PAIRS);
        }
        queuePairCount = qpn + 1;
        return qpn;
    }

    /**
     * Connects queue pair {@code qpn} to {@code remoteQp} at {@code remotePort}, expecting its first request packet to
     * carry {@code firstPsn}. Any thread, before the peer sends.
     */
    public synchronized void connect(int qpn, int remotePort, int remoteQp, int firstPsn) {
        if (qpn < 0 || qpn >= queuePairCount) {
            throw new IllegalArgumentException("no such queue pair: qpn=" + qpn);
        }
        peerPort[qpn] = remotePort;
        peerQp[qpn] = remoteQp;
        expectedPsn[qpn] = firstPsn & Psn.MASK;
        connected[qpn] = true;
        queuePairCount = queuePairCount; // volatile write: publishes the fields above to the agent
    }

    /**
     * One duty cycle: receives and handles up to {@value #RECEIVE_LIMIT} packets, then sends the next READ response
     * packets of every queue pair with a READ to answer; one burst of the link ({@link PacketLink#beginBurst()}).
     *
     * @return the work done (packets handled and sent)
     */
    public int doWork() {
        int work = 0;
        int queuePairs = queuePairCount; // volatile read: sees set-up done before
        link.beginBurst(); // the peers this cycle's packets wake are woken once, at its end
        for (int i = 0; i < RECEIVE_LIMIT; i++) {
            int length = link.receive(receiveBuffer, PacketDescriptor.HEADROOM_LENGTH);
            if (length == PacketLink.NOTHING) {
                break;
            }
            work++;
            counters.packetsReceived++;
            packet.wrap(receiveBuffer, PacketDescriptor.HEADROOM_LENGTH, length);
            if (!packet.verify(mtuBytes)) {
                counters.malformedPackets++;
                continue;
            }
            onPacket(link.sourcePort(), queuePairs);
        }
        for (int qpn = 0; qpn < queuePairs; qpn++) {
            if (responseRegion[qpn] != null) {
                work += sendResponses(qpn);
            }
        }
        if (responseBurst < DEFAULT_RESPONSE_BURST && ++cyclesSinceCongestion >= BURST_RECOVERY_CYCLES) {
            responseBurst++;
            cyclesSinceCongestion = 0;
        }
        link.endBurst();
        return work;
    }

    private void onPacket(int sourcePort, int queuePairs) {
        int qpn = packet.destinationQp();
        PacketOpcode opcode = packet.opcode();
        if (qpn >= queuePairs || !connected[qpn] || peerPort[qpn] != sourcePort) {
            counters.strayPackets++;
            return;
        }
        if (opcode == PacketOpcode.READ_REQUEST) {
            onReadRequest(qpn);
        } else if (opcode.isWrite()) {
            onWrite(qpn, opcode);
        } else if (opcode == PacketOpcode.CNP) {
            counters.congestionNotifications++;
            responseBurst = Math.max(1, responseBurst / 2);
            cyclesSinceCongestion = 0;
        } else {
            counters.strayPackets++; // this NIC is a responder only: no ACKs, responses or doorbells expected
        }
    }

    private void onReadRequest(int qpn) {
        counters.readRequests++;
        int psn = packet.psn();
        int distance = Psn.distance(psn, expectedPsn[qpn]);
        if (distance > 0) {
            outOfOrder(qpn);
            return;
        }
        int length = packet.dmaLength();
        MemorySegment region = region(packet.remoteKey(), packet.virtualAddress(), length);
        if (region == null) {
            sendAcknowledgement(qpn, psn, PacketDescriptor.SYNDROME_NAK_REMOTE_ACCESS);
            counters.accessNaksSent++;
            return;
        }
        int count = PacketDescriptor.packetCount(length, mtuBytes);
        if (distance == 0) {
            expectedPsn[qpn] = Psn.add(psn, count);
            nakSent[qpn] = false;
        } else {
            counters.duplicatePackets++; // a retried READ: answered again, from the current memory
        }
        responseRegion[qpn] = region;
        responseOffset[qpn] = packet.virtualAddress() & ((1L << ADDRESS_SHIFT) - 1);
        responseLength[qpn] = length;
        responseFirstPsn[qpn] = psn;
        responseCount[qpn] = count;
        responseNext[qpn] = 0;
    }

    private int sendResponses(int qpn) {
        int sent = 0;
        MemorySegment region = responseRegion[qpn];
        int count = responseCount[qpn];
        while (sent < responseBurst && responseNext[qpn] < count) {
            int index = responseNext[qpn];
            PacketOpcode opcode = PacketOpcode.segment(false, index, count);
            long offset = (long) index * mtuBytes;
            int payload = (int) Math.min(mtuBytes, responseLength[qpn] - offset);
            reply.begin(sendBuffer, 0, opcode, peerQp[qpn], Psn.add(responseFirstPsn[qpn], index));
            if (opcode.extensionLength() == PacketDescriptor.AETH_LENGTH) {
                reply.aeth(PacketDescriptor.SYNDROME_ACK, messageSequence[qpn]);
            }
            long source = responseOffset[qpn] + offset;
            int target = opcode.headerLength();
            if (payload == Long.BYTES && (source & 7) == 0) {
                // a pointer word: read with acquire, so what its writer stored before it is seen by later READs
                sendSegment.set(WIRE_LONG, target, (long) MEMORY_LONG.getAcquire(region, source));
            } else {
                VarHandle.acquireFence();
                MemorySegment.copy(region, source, sendSegment, target, payload);
            }
            reply.seal(payload);
            link.send(sendBuffer, 0, reply.length(), peerPort[qpn]);
            counters.readResponsePackets++;
            responseNext[qpn] = index + 1;
            sent++;
        }
        if (responseNext[qpn] == count) {
            responseRegion[qpn] = null;
            messageSequence[qpn] = Psn.add(messageSequence[qpn], 1);
        }
        return sent;
    }

    private void onWrite(int qpn, PacketOpcode opcode) {
        int psn = packet.psn();
        int distance = Psn.distance(psn, expectedPsn[qpn]);
        if (distance < 0) {
            counters.duplicatePackets++;
            sendAcknowledgement(qpn, Psn.add(expectedPsn[qpn], -1), PacketDescriptor.SYNDROME_ACK);
            return;
        }
        if (distance > 0) {
            outOfOrder(qpn);
            return;
        }
        if (opcode.startsMessage()) {
            MemorySegment region = region(packet.remoteKey(), packet.virtualAddress(), packet.dmaLength());
            if (region == null) {
                sendAcknowledgement(qpn, psn, PacketDescriptor.SYNDROME_NAK_REMOTE_ACCESS);
                counters.accessNaksSent++;
                return;
            }
            writeRegion[qpn] = region;
            writeOffset[qpn] = packet.virtualAddress() & ((1L << ADDRESS_SHIFT) - 1);
            writeRemaining[qpn] = packet.dmaLength();
        } else if (writeRegion[qpn] == null) {
            counters.strayPackets++; // a MIDDLE or LAST without a FIRST: cannot happen in PSN order
            return;
        }
        int payload = packet.payloadLength();
        boolean last = opcode.endsMessage();
        if (payload > writeRemaining[qpn] || (last && payload != writeRemaining[qpn])) {
            sendAcknowledgement(qpn, psn, PacketDescriptor.SYNDROME_NAK_REMOTE_ACCESS);
            counters.accessNaksSent++;
            writeRegion[qpn] = null;
            return;
        }
        apply(writeRegion[qpn], writeOffset[qpn], payload, last);
        writeOffset[qpn] += payload;
        writeRemaining[qpn] -= payload;
        expectedPsn[qpn] = Psn.add(psn, 1);
        nakSent[qpn] = false;
        counters.writePacketsApplied++;
        if (last) {
            writeRegion[qpn] = null;
            messageSequence[qpn] = Psn.add(messageSequence[qpn], 1);
        }
        if (last || packet.ackRequest()) {
            sendAcknowledgement(qpn, psn, PacketDescriptor.SYNDROME_ACK);
        }
    }

    /** Copies a WRITE packet's payload; a message's last aligned 8-byte word goes last, with release. */
    private void apply(MemorySegment region, long offset, int payload, boolean last) {
        int source = packet.payloadOffset();
        long end = offset + payload;
        if (last && payload >= Long.BYTES && (end & 7) == 0) {
            MemorySegment.copy(receiveSegment, source, region, offset, payload - Long.BYTES);
            long word = receiveSegment.get(WIRE_LONG, source + payload - Long.BYTES);
            MEMORY_LONG.setRelease(region, end - Long.BYTES, word);
        } else {
            MemorySegment.copy(receiveSegment, source, region, offset, payload);
        }
    }

    private void outOfOrder(int qpn) {
        counters.outOfOrderPackets++;
        if (!nakSent[qpn]) {
            nakSent[qpn] = true;
            sendAcknowledgement(qpn, expectedPsn[qpn], PacketDescriptor.SYNDROME_NAK_SEQUENCE);
            counters.sequenceNaksSent++;
        }
    }

    private void sendAcknowledgement(int qpn, int psn, int syndrome) {
        reply.begin(sendBuffer, 0, PacketOpcode.ACKNOWLEDGE, peerQp[qpn], psn)
                .aeth(syndrome, messageSequence[qpn])
                .seal(0);
        link.send(sendBuffer, 0, reply.length(), peerPort[qpn]);
        if (syndrome == PacketDescriptor.SYNDROME_ACK) {
            counters.acknowledgementsSent++;
        }
    }

    /** The region {@code remoteKey} names if {@code [address, address + length)} lies in it, else null. */
    private MemorySegment region(int remoteKey, long address, long length) {
        int index = remoteKey - 1;
        if (index < 0 || index >= regionCount || length < 0) {
            return null;
        }
        long offset = address - ((long) remoteKey << ADDRESS_SHIFT);
        MemorySegment region = regions[index];
        if (offset < 0 || offset + length > region.byteSize()) {
            return null;
        }
        return region;
    }

    @Override
    public void close() {
        link.close();
    }
}
