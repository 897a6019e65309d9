package dev.faro.zerosided.switching;

import dev.faro.zerosided.link.PacketLink;
import dev.faro.zerosided.packet.Packet;
import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.packet.Psn;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The software switch's data plane: one single-threaded packet loop ({@link #doWork()}) that drives every flow, the
 * RDMA initiator of every processing unit's NIC, so that no PU thread takes part in communication (SIGMOD24 §4). The
 * protocol of one transfer and the switch threads are described in this package's documentation; the control plane is
 * {@link #control()}.
 *
 * <p>State lives in register arrays indexed by endpoint (the switch's queue pair number for a PU buffer's connection
 * is the endpoint's index): the static table (port, QPN, key, address, shape), the mirrored pointers, the PSN of each
 * connection, the one outstanding operation per connection, and per consumer its switch thread. Payload is forwarded
 * by reference: a READ response is rewritten into a WRITE in the receive buffer and sent on at once, so the switch
 * never holds more than one packet's payload; {@link SwitchStatistics#payloadHighWaterBytes()} and
 * {@link SwitchStatistics#payloadBoundViolations()} show it.
 *
 * <p>Data path: {@link #doWork()} is allocation-free; control commands (rare) allocate. One thread runs
 * {@link #doWork()}; any thread uses {@link #control()}.
 */
public final class ZeroSidedSwitch implements AutoCloseable {

    /** Endpoints (PU buffers) the switch can hold. */
    public static final int MAXIMUM_ENDPOINTS = 4096;

    private static final int RECEIVE_LIMIT = 64;
    private static final int RECIRCULATION_LIMIT = 64;
    private static final int COMMAND_LIMIT = 16;
    private static final long DEADLINE_SCAN_INTERVAL_NS = 100_000;
    static final long PER_PACKET_TIMEOUT_NS = 20_000;
    static final long IN_FLIGHT_LIMIT_PACKETS = 1024;
    static final long POLL_BACKOFF_FIRST_NS = 1_000;
    static final long POLL_BACKOFF_LIMIT_NS = 64_000;

    static final int OP_NONE = 0;
    static final int OP_POLL = 1;
    static final int OP_DATA_READ = 2;
    static final int OP_DATA_WRITE = 3;
    static final int OP_HEAD_WRITE = 4;
    static final int OP_TAIL_WRITE = 5;
    static final int OP_END_WRITE = 6;

    static final int THREAD_NONE = 0;
    static final int THREAD_IDLE = 1;
    static final int THREAD_BUSY = 2;
    static final int THREAD_DONE = 3;
    static final int THREAD_FAILED = 4;

    private static final ValueLayout.OfLong WIRE_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final PacketLink link;
    private final SwitchConfig config;
    private final SwitchStatistics statistics = new SwitchStatistics();
    private final SwitchControl control;
    private final Queue<Consumer<ZeroSidedSwitch>> commands = new ConcurrentLinkedQueue<>();
    private final Packet packet = new Packet();
    private final Packet request = new Packet();
    private final ByteBuffer receiveBuffer;
    private final ByteBuffer sendBuffer;
    private final MemorySegment receiveSegment;
    private final MemorySegment sendSegment;

    /** The register arrays and static tables; written by this thread only (control commands run on it). */
    final SwitchRegisters registers = new SwitchRegisters();

    // Recirculation: switch threads with nothing outstanding, to evaluate again.
    private final int[] recirculation = new int[MAXIMUM_ENDPOINTS];
    private final boolean[] queued = new boolean[MAXIMUM_ENDPOINTS];
    private long recirculationHead;
    private long recirculationTail;

    private final ReplicationThreads replication = new ReplicationThreads(this);
    final QosScheduler qos;

    long nowNs;
    private long nextDeadlineScanNs;

    /** A switch sending and receiving on {@code link}, which it then owns. */
    public ZeroSidedSwitch(PacketLink link, SwitchConfig config) {
        this.link = link;
        this.config = config;
        int length = PacketDescriptor.bufferLength(config.mtuBytes());
        this.receiveBuffer = ByteBuffer.allocateDirect(length);
        this.sendBuffer = ByteBuffer.allocateDirect(length);
        this.receiveSegment = MemorySegment.ofBuffer(receiveBuffer);
        this.sendSegment = MemorySegment.ofBuffer(sendBuffer);
        this.qos = new QosScheduler(registers, config.maxBatchBytes());
        this.control = new SwitchControl(this);
    }

    /**
     * Bytes of switch state (static table and registers) one producer-consumer pair of a 1:1 flow occupies, as this
     * switch lays it out (digest V12; the paper's Tofino: about 50 B of registers and 700 B of tables).
     */
    public static int stateBytesPerPair() {
        return SwitchRegisters.bytesPerPair();
    }

    /** The switch's port on the packet fabric: every PU NIC connects its queue pairs here. */
    public int port() {
        return link.port();
    }

    public SwitchConfig config() {
        return config;
    }

    public SwitchStatistics statistics() {
        return statistics;
    }

    /** The control plane: install endpoints and flows, change them live. Any thread. */
    public SwitchControl control() {
        return control;
    }

    void enqueue(Consumer<ZeroSidedSwitch> command) {
        commands.add(command);
    }

    /**
     * One duty cycle: read the clock; receive and handle up to {@value #RECEIVE_LIMIT} packets (rewrite READ
     * responses, advance transfers on ACKs, take doorbells); run control commands; run the recirculated switch threads;
     * reissue operations whose deadline passed. One burst of the link ({@link PacketLink#beginBurst()}).
     *
     * @return the work done
     */
    public int doWork() {
        nowNs = System.nanoTime();
        int work = 0;
        link.beginBurst(); // the NICs this cycle's packets wake are woken once, at its end
        for (int i = 0; i < RECEIVE_LIMIT; i++) {
            int length = link.receive(receiveBuffer, PacketDescriptor.HEADROOM_LENGTH);
            if (length == PacketLink.NOTHING) {
                break;
            }
            work++;
            statistics.packetsReceived++;
            packet.wrap(receiveBuffer, PacketDescriptor.HEADROOM_LENGTH, length);
            if (!packet.verify(config.mtuBytes())) {
                statistics.malformedPackets++;
                continue;
            }
            onPacket(link.sourcePort());
        }
        for (int i = 0; i < COMMAND_LIMIT; i++) {
            Consumer<ZeroSidedSwitch> command = commands.poll();
            if (command == null) {
                break;
            }
            command.accept(this);
            work++;
        }
        for (int i = 0; i < RECIRCULATION_LIMIT && recirculationHead != recirculationTail; i++) {
            int thread = recirculation[(int) (recirculationHead++ % MAXIMUM_ENDPOINTS)];
            queued[thread] = false;
            work += decide(thread);
        }
        if (nowNs - nextDeadlineScanNs >= 0) {
            nextDeadlineScanNs = nowNs + DEADLINE_SCAN_INTERVAL_NS;
            work += checkDeadlines();
        }
        link.endBurst();
        return work;
    }

    /**
     * Waits on the switch's link after a duty cycle that found no work ({@code AgentRunner}'s waiter): until a packet
     * arrives (a link that senders wake returns then), the next poll may be due (at most the poll interval, or the
     * longest back-off of continuous polling), or about
     * {@code timeoutNanos}, whichever is first; not at all while a control command waits. Retries wait for timeouts
     * of tens of milliseconds, so a millisecond's wait delays them little.
     */
    public void awaitWork(long timeoutNanos) {
        if (!commands.isEmpty()) {
            return;
        }
        long waitNs = Math.min(
                Math.min(timeoutNanos, config.retryTimeoutNs()),
                config.pollIntervalNs() > 0 ? config.pollIntervalNs() : POLL_BACKOFF_LIMIT_NS);
        link.awaitDatagram(waitNs);
    }

    // ---- ingress

    private void onPacket(int sourcePort) {
        int endpoint = packet.destinationQp();
        PacketOpcode opcode = packet.opcode();
        // RC: only the connected NIC may answer; a doorbell comes from whatever the PU sends with
        if (endpoint >= registers.endpointCount
                || (registers.port[endpoint] != sourcePort && opcode != PacketOpcode.DOORBELL)) {
            statistics.stalePackets++;
            return;
        }
        if (opcode.isReadResponse()) {
            onReadResponse(endpoint, opcode);
        } else if (opcode == PacketOpcode.ACKNOWLEDGE) {
            onAcknowledge(endpoint);
        } else if (opcode == PacketOpcode.DOORBELL) {
            onDoorbell(endpoint);
        } else {
            statistics.stalePackets++;
        }
    }

    private void onReadResponse(int endpoint, PacketOpcode opcode) {
        int psn = packet.psn();
        int kind = registers.operation[endpoint];
        if (!Psn.inRange(psn, registers.operationPsn[endpoint], registers.operationPackets[endpoint])
                || (kind != OP_DATA_READ && kind != OP_POLL)) {
            statistics.stalePackets++;
            return;
        }
        if (kind == OP_POLL) {
            long value = receiveSegment.get(WIRE_LONG, packet.payloadOffset());
            boolean learned = learnPointer(
                    endpoint, registers.producer[endpoint] ? ZeroSidedBufferDescriptor.HEAD_OFFSET : -1, value);
            backOffPolls(endpoint, learned);
            int thread = registers.operationThread[endpoint];
            complete(endpoint);
            unlock(endpoint, thread);
            recirculate(thread);
            return;
        }
        // step 2: rewrite the READ response into a WRITE to the consumer(s), PSN by the transfer's fixed offset
        int thread = registers.operationThread[endpoint];
        if (registers.threadKind[thread] == SwitchRegisters.REPLICATION_THREAD) {
            replication.forward(thread, opcode.toWrite(), psn);
        } else {
            forward(thread, opcode.toWrite(), psn);
        }
    }

    /**
     * Rewrites the received READ response (as it is now: a response, or a WRITE already sent to another consumer) into
     * a WRITE to {@code consumer} for the response's PSN {@code responsePsn}, and sends it: the payload is not touched.
     */
    void forward(int consumer, PacketOpcode write, int responsePsn) {
        int payload = packet.rewriteHeader(
                write, registers.queuePair[consumer], Psn.add(responsePsn, registers.psnOffset[consumer]));
        if (write.startsMessage()) {
            packet.reth(
                    registers.operationAddress[consumer],
                    registers.remoteKey[consumer],
                    registers.operationLength[consumer]);
        }
        packet.ackRequest(write.endsMessage());
        packet.seal(payload);
        statistics.heldPayloadBytes = payload;
        if (payload > statistics.payloadHighWaterBytes) {
            statistics.payloadHighWaterBytes = payload;
        }
        if (payload > statistics.inFlightDataPackets * config.mtuBytes()) {
            statistics.payloadBoundViolations++;
        }
        link.send(packet.buffer(), packet.start(), packet.length(), registers.port[consumer]);
        statistics.heldPayloadBytes = 0;
        statistics.packetsForwarded++;
    }

    private void onAcknowledge(int endpoint) {
        int kind = registers.operation[endpoint];
        int psn = packet.psn();
        int last = Psn.add(registers.operationPsn[endpoint], registers.operationPackets[endpoint] - 1);
        boolean covers = Psn.distance(psn, last) >= 0 && Psn.distance(psn, registers.nextPsn[endpoint]) < 0;
        int syndrome = packet.syndrome();
        if (syndrome != PacketDescriptor.SYNDROME_ACK) {
            statistics.naksReceived++;
            if (kind == OP_NONE || kind == OP_DATA_READ) {
                statistics.stalePackets++;
            } else if (syndrome == PacketDescriptor.SYNDROME_NAK_SEQUENCE) {
                if (kind == OP_DATA_WRITE) {
                    // data was lost on its way to the consumer: tell the producer's NIC to slow down (RoCEv2 CNP)
                    sendCongestionNotification(registers.batchProducer[registers.operationThread[endpoint]]);
                }
                reissue(endpoint);
            } else {
                fail(
                        registers.operationThread[endpoint],
                        "remote access error at endpoint " + endpoint + " (port " + registers.port[endpoint] + ", qp "
                                + registers.queuePair[endpoint] + "): its key or bounds changed");
            }
            return;
        }
        if (!covers || kind == OP_NONE || kind == OP_DATA_READ || kind == OP_POLL) {
            statistics.stalePackets++; // a duplicate ACK, or one for an operation already completed
            return;
        }
        int thread = registers.operationThread[endpoint];
        if (registers.threadKind[thread] == SwitchRegisters.REPLICATION_THREAD) {
            replication.onAcknowledged(kind, endpoint, thread);
            return;
        }
        switch (kind) {
            case OP_DATA_WRITE -> onDataAcknowledged(thread);
            case OP_HEAD_WRITE -> onHeadAcknowledged(thread);
            case OP_TAIL_WRITE -> onTailAcknowledged(endpoint, thread);
            case OP_END_WRITE -> onEndAcknowledged(thread);
            default -> statistics.stalePackets++;
        }
    }

    private void onDoorbell(int endpoint) {
        statistics.doorbells++;
        long offset = packet.virtualAddress() - registers.baseAddress[endpoint];
        backOffPolls(endpoint, learnPointer(endpoint, (int) offset, packet.doorbellValue()));
    }

    /**
     * Takes a PU's pointer (a head word of a producer, a tail of a consumer); never moves a mirror backwards.
     *
     * @return whether it moved the mirror or ended the producer's stream
     */
    private boolean learnPointer(int endpoint, int offset, long value) {
        if (registers.producer[endpoint] && offset == ZeroSidedBufferDescriptor.HEAD_OFFSET) {
            long count = ZeroSidedBufferDescriptor.count(value);
            boolean learned = false;
            if (count - registers.head[endpoint] > 0) {
                registers.head[endpoint] = count;
                learned = true;
            }
            if (ZeroSidedBufferDescriptor.ended(value)
                    && count == registers.head[endpoint]
                    && !registers.ended[endpoint]) {
                registers.ended[endpoint] = true;
                learned = true;
            }
            return learned;
        } else if (!registers.producer[endpoint]) {
            if (value - registers.tail[endpoint] > 0) {
                registers.tail[endpoint] = value;
                return true;
            }
        }
        return false;
    }

    /**
     * Continuous polling ({@link SwitchConfig#pollIntervalNs()} 0) backs off per endpoint: a poll that learned
     * nothing doubles the wait before the endpoint's next one (from {@value #POLL_BACKOFF_FIRST_NS} ns up to
     * {@value #POLL_BACKOFF_LIMIT_NS} ns), one that learned something (or a doorbell) ends the back-off. On a Tofino a
     * recirculating poll is free; here every poll is a READ round trip through the switch's and a NIC's threads, and
     * unanswered polls of endpoints whose threads do not run (a full consumer whose thread waits for a core) took
     * most of a pinned network core (Fig. 6: 100-300 polls per transfer).
     */
    private void backOffPolls(int endpoint, boolean learned) {
        if (learned) {
            registers.pollBackoffNs[endpoint] = 0;
        } else if (config.pollIntervalNs() == 0) {
            registers.pollBackoffNs[endpoint] = Math.min(
                    POLL_BACKOFF_LIMIT_NS, Math.max(POLL_BACKOFF_FIRST_NS, 2 * registers.pollBackoffNs[endpoint]));
        }
    }

    // ---- the five steps of a transfer

    /** Step 1: a switch thread's pass; starts a transfer, a poll or the end of stream, or recirculates. */
    private int decide(int consumer) {
        if (registers.threadState[consumer] != THREAD_IDLE) {
            return 0;
        }
        if (registers.threadKind[consumer] == SwitchRegisters.REPLICATION_THREAD) {
            return replication.decide(consumer);
        }
        if (registers.removing[consumer]) {
            registers.threadState[consumer] = THREAD_NONE;
            return 1;
        }
        int[] producers = registers.producersOf[consumer];
        long free = registers.capacity[consumer] - (registers.head[consumer] - registers.tail[consumer]);
        int count = producers.length;
        boolean allEnded = true;
        boolean wanted = false;
        for (int i = 0; i < count; i++) {
            int index = (registers.roundRobin[consumer] + i) % count;
            int p = producers[index];
            long available = registers.head[p] - registers.tail[p];
            allEnded &= registers.ended[p] && available == 0;
            if (available > 0 && free > 0 && registers.lockOwner[p] < 0) {
                wanted = true;
                if (!qos.mayStart(consumer)) {
                    break; // over its share: let the other flows catch up
                }
                long items = Math.min(Math.min(Math.min(available, free), maxBatchItems(p)), inFlightBudgetItems(p));
                if (items <= 0) {
                    break; // the responses in flight would overflow the switch's link: wait for an ACK
                }
                registers.roundRobin[consumer] = (index + 1) % count;
                startTransfer(consumer, p, items);
                return 1;
            }
        }
        if (!wanted) {
            qos.idle(consumer);
        }
        if (allEnded && count > 0) {
            registers.lockOwner[consumer] = consumer;
            startPointerWrite(
                    consumer,
                    consumer,
                    OP_END_WRITE,
                    registers.head[consumer] | ZeroSidedBufferDescriptor.END_OF_STREAM_BIT);
            return 1;
        }
        if (free == 0 && pollDue(consumer)) {
            startPoll(consumer, consumer, ZeroSidedBufferDescriptor.TAIL_OFFSET);
            return 1;
        }
        for (int i = 0; i < count; i++) {
            int p = producers[(registers.roundRobin[consumer] + i) % count];
            if (registers.head[p] == registers.tail[p]
                    && !registers.ended[p]
                    && registers.lockOwner[p] < 0
                    && pollDue(p)) {
                registers.roundRobin[consumer] = (registers.roundRobin[consumer] + i + 1) % count;
                registers.lockOwner[p] = consumer;
                startPoll(p, consumer, ZeroSidedBufferDescriptor.HEAD_OFFSET);
                return 1;
            }
        }
        statistics.recirculations++;
        recirculate(consumer);
        return 0;
    }

    /**
     * Items of {@code producerEndpoint} a new transfer may READ beside the data packets already in flight: at most
     * {@value #IN_FLIGHT_LIMIT_PACKETS} packets in all, about half the switch's link buffer (a shared-memory link's
     * ring or an in-process queue holds 2,048), unless nothing is in flight (a batch larger than that then runs
     * alone). READ responses arrive at the pace of the producers' NICs; a switch that cannot forward them as fast
     * (its thread shares a core with those NICs) would otherwise have its link drop them, and every lost tail costs a
     * retry timeout (Fig. 6 pinned, 8 flows of 256 KiB batches: 2,048 packets requested at once, 18 retries of 1 s in
     * a 4 s run).
     */
    long inFlightBudgetItems(int producerEndpoint) {
        long inFlight = statistics.inFlightDataPackets;
        if (inFlight == 0) {
            return Long.MAX_VALUE;
        }
        return (IN_FLIGHT_LIMIT_PACKETS - inFlight) * config.mtuBytes() / registers.itemBytes[producerEndpoint];
    }

    long maxBatchItems(int endpoint) {
        return Math.max(1, config.maxBatchBytes() / registers.itemBytes[endpoint]);
    }

    boolean pollDue(int endpoint) {
        return registers.operation[endpoint] == OP_NONE
                && nowNs - registers.lastPollNs[endpoint]
                        >= Math.max(config.pollIntervalNs(), registers.pollBackoffNs[endpoint]);
    }

    void startPoll(int endpoint, int thread, int wordOffset) {
        statistics.polls++;
        registers.lastPollNs[endpoint] = nowNs;
        registers.threadState[thread] = THREAD_BUSY;
        begin(endpoint, thread, OP_POLL, 1, registers.baseAddress[endpoint] + wordOffset, Long.BYTES, 0);
        sendReadRequest(endpoint);
    }

    private void startTransfer(int consumer, int producerEndpoint, long items) {
        // a READ and a WRITE never cross the end of either ring
        items = Math.min(
                items,
                registers.capacity[producerEndpoint]
                        - registers.tail[producerEndpoint] % registers.capacity[producerEndpoint]);
        items = Math.min(items, registers.capacity[consumer] - registers.head[consumer] % registers.capacity[consumer]);
        int bytes = (int) (items * registers.itemBytes[consumer]);
        int packets = PacketDescriptor.packetCount(bytes, config.mtuBytes());
        registers.lockOwner[producerEndpoint] = consumer;
        registers.threadState[consumer] = THREAD_BUSY;
        registers.batchProducer[consumer] = producerEndpoint;
        registers.batchItems[consumer] = items;
        long readAddress = registers.baseAddress[producerEndpoint]
                + ZeroSidedBufferDescriptor.slotOffset(
                        registers.tail[producerEndpoint],
                        registers.capacity[producerEndpoint],
                        registers.itemBytes[producerEndpoint]);
        long writeAddress = registers.baseAddress[consumer]
                + ZeroSidedBufferDescriptor.slotOffset(
                        registers.head[consumer], registers.capacity[consumer], registers.itemBytes[consumer]);
        begin(producerEndpoint, consumer, OP_DATA_READ, packets, readAddress, bytes, 0);
        registers.deadlineNs[producerEndpoint] = Long.MAX_VALUE; // the consumer side's deadline covers the transfer
        begin(consumer, consumer, OP_DATA_WRITE, packets, writeAddress, bytes, 0);
        registers.deadlineNs[consumer] += (long) packets * PER_PACKET_TIMEOUT_NS;
        registers.psnOffset[consumer] =
                Psn.distance(registers.operationPsn[consumer], registers.operationPsn[producerEndpoint]);
        statistics.inFlightDataPackets += packets;
        sendReadRequest(producerEndpoint);
    }

    /** Step 3: the items are in the consumer's buffer: raise its head. */
    private void onDataAcknowledged(int consumer) {
        int p = registers.batchProducer[consumer];
        statistics.inFlightDataPackets -= registers.operationPackets[consumer];
        complete(p);
        complete(consumer);
        startPointerWrite(consumer, consumer, OP_HEAD_WRITE, registers.head[consumer] + registers.batchItems[consumer]);
    }

    /** Step 4: the consumer sees the items: free the producer's slots. */
    private void onHeadAcknowledged(int consumer) {
        registers.head[consumer] = registers.operationValue[consumer];
        complete(consumer);
        int p = registers.batchProducer[consumer];
        startPointerWrite(p, consumer, OP_TAIL_WRITE, registers.tail[p] + registers.batchItems[consumer]);
    }

    /** Step 5: the transfer is done: back to step 1. */
    private void onTailAcknowledged(int producerEndpoint, int consumer) {
        registers.tail[producerEndpoint] = registers.operationValue[producerEndpoint];
        complete(producerEndpoint);
        unlock(producerEndpoint, consumer);
        statistics.transfers++;
        statistics.itemsMoved += registers.batchItems[consumer];
        statistics.bytesMoved += registers.batchItems[consumer] * registers.itemBytes[consumer];
        registers.itemsDelivered[consumer] += registers.batchItems[consumer];
        qos.charge(consumer, registers.batchItems[consumer] * registers.itemBytes[consumer]);
        registers.batchItems[consumer] = 0;
        recirculate(consumer);
    }

    private void onEndAcknowledged(int consumer) {
        complete(consumer);
        unlock(consumer, consumer);
        registers.threadState[consumer] = THREAD_DONE;
        statistics.endsOfStream++;
    }

    void startPointerWrite(int endpoint, int thread, int kind, long value) {
        int offset =
                kind == OP_TAIL_WRITE ? ZeroSidedBufferDescriptor.TAIL_OFFSET : ZeroSidedBufferDescriptor.HEAD_OFFSET;
        begin(endpoint, thread, kind, 1, registers.baseAddress[endpoint] + offset, Long.BYTES, value);
        sendPointerWrite(endpoint);
    }

    // ---- connections: one operation outstanding, reissued with its own PSNs

    void begin(int endpoint, int thread, int kind, int packets, long address, int length, long value) {
        registers.operation[endpoint] = kind;
        registers.operationThread[endpoint] = thread;
        registers.operationPsn[endpoint] = registers.nextPsn[endpoint];
        registers.operationPackets[endpoint] = packets;
        registers.operationAddress[endpoint] = address;
        registers.operationLength[endpoint] = length;
        registers.operationValue[endpoint] = value;
        registers.retries[endpoint] = 0;
        registers.deadlineNs[endpoint] = nowNs + config.retryTimeoutNs();
        registers.nextPsn[endpoint] = Psn.add(registers.nextPsn[endpoint], packets);
    }

    void complete(int endpoint) {
        registers.operation[endpoint] = OP_NONE;
    }

    void unlock(int endpoint, int thread) {
        if (registers.lockOwner[endpoint] == thread) {
            registers.lockOwner[endpoint] = -1;
        }
    }

    void sendReadRequest(int endpoint) {
        request.begin(
                        sendBuffer,
                        0,
                        PacketOpcode.READ_REQUEST,
                        registers.queuePair[endpoint],
                        registers.operationPsn[endpoint])
                .reth(
                        registers.operationAddress[endpoint],
                        registers.remoteKey[endpoint],
                        registers.operationLength[endpoint])
                .seal(0);
        link.send(sendBuffer, 0, request.length(), registers.port[endpoint]);
    }

    private void sendPointerWrite(int endpoint) {
        request.begin(
                        sendBuffer,
                        0,
                        PacketOpcode.WRITE_ONLY,
                        registers.queuePair[endpoint],
                        registers.operationPsn[endpoint])
                .reth(registers.operationAddress[endpoint], registers.remoteKey[endpoint], Long.BYTES)
                .ackRequest(true);
        sendSegment.set(WIRE_LONG, PacketOpcode.WRITE_ONLY.headerLength(), registers.operationValue[endpoint]);
        request.seal(Long.BYTES);
        link.send(sendBuffer, 0, request.length(), registers.port[endpoint]);
    }

    private void sendCongestionNotification(int endpoint) {
        request.begin(sendBuffer, 0, PacketOpcode.CNP, registers.queuePair[endpoint], 0)
                .cnpReserved()
                .seal(0);
        link.send(sendBuffer, 0, request.length(), registers.port[endpoint]);
        statistics.congestionNotifications++;
    }

    /**
     * Reissues the operation outstanding on {@code endpoint}: data not yet ACKed by the consumer is READ again from
     * the producer (same PSNs, so the consumer's NIC drops what it already applied); a pointer WRITE or a poll is sent
     * again as it was (absolute values: applying one twice changes nothing).
     */
    private void reissue(int endpoint) {
        int kind = registers.operation[endpoint];
        int thread = registers.operationThread[endpoint];
        if (++registers.retries[endpoint] > config.maxRetries()) {
            fail(
                    thread,
                    "endpoint " + endpoint + " (port " + registers.port[endpoint] + ", qp "
                            + registers.queuePair[endpoint] + ") did not answer after " + config.maxRetries()
                            + " retries");
            return;
        }
        statistics.retries++;
        registers.deadlineNs[endpoint] =
                nowNs + config.retryTimeoutNs() + (long) registers.operationPackets[endpoint] * PER_PACKET_TIMEOUT_NS;
        switch (kind) {
            case OP_DATA_WRITE -> sendReadRequest(registers.batchProducer[thread]);
            case OP_POLL -> sendReadRequest(endpoint);
            case OP_HEAD_WRITE, OP_TAIL_WRITE, OP_END_WRITE -> sendPointerWrite(endpoint);
            default -> statistics.stalePackets++;
        }
    }

    private int checkDeadlines() {
        int work = 0;
        for (int endpoint = 0; endpoint < registers.endpointCount; endpoint++) {
            int kind = registers.operation[endpoint];
            if (kind != OP_NONE && kind != OP_DATA_READ && nowNs - registers.deadlineNs[endpoint] >= 0) {
                reissue(endpoint);
                work++;
            }
        }
        return work;
    }

    private void fail(int thread, String message) {
        if (statistics.failure == null) {
            statistics.failure = "zero-sided flow " + registers.threadFlow[thread] + " failed: " + message;
        }
        registers.threadState[thread] = THREAD_FAILED;
        for (int endpoint = 0; endpoint < registers.endpointCount; endpoint++) {
            if (registers.operationThread[endpoint] == thread && registers.operation[endpoint] != OP_NONE) {
                if (registers.operation[endpoint] == OP_DATA_WRITE) {
                    statistics.inFlightDataPackets -= registers.operationPackets[endpoint];
                }
                registers.operation[endpoint] = OP_NONE;
            }
            unlock(endpoint, thread);
        }
    }

    void recirculate(int thread) {
        if (registers.threadState[thread] == THREAD_BUSY) {
            registers.threadState[thread] = THREAD_IDLE;
        }
        if (!queued[thread] && registers.threadState[thread] == THREAD_IDLE) {
            queued[thread] = true;
            recirculation[(int) (recirculationTail++ % MAXIMUM_ENDPOINTS)] = thread;
        }
    }

    @Override
    public void close() {
        link.close();
    }
}
