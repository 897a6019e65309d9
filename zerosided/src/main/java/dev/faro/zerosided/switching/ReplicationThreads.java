package dev.faro.zerosided.switching;

import dev.faro.zerosided.packet.PacketDescriptor;
import dev.faro.zerosided.packet.PacketOpcode;
import dev.faro.zerosided.packet.Psn;
import dev.faro.zerosided.unit.ZeroSidedBufferDescriptor;

/**
 * The switch threads of replication flows (paper §5.2, §6.1): one per producer, multicasting each batch to every
 * consumer of the flow in one global order. A transfer locks the producer and <i>all</i> consumers, so transfers of
 * the flow's producers never interleave; it READs min(available, least free space over the consumers, max batch)
 * items once, sends every response fragment to each consumer (the same payload, its header rewritten per consumer),
 * raises the consumers' heads only when every consumer has ACKed the data (all-or-nothing visibility), and frees the
 * producer's slots only when every head WRITE is ACKed. Every consumer therefore sees the same sequence.
 *
 * <p>Fairness (paper Fig. 14): the flow's producers take turns. The turn (an index into the flow's producers, kept in
 * the round-robin register of its first producer) passes to the next producer after each transfer starts; a producer
 * whose turn it is not waits while the producer whose turn it is has items, so backlogged producers share the
 * consumers evenly whichever thread the recirculation queue happens to run first.
 *
 * <p>Data path: allocation-free; runs on the switch's loop thread, on the switch's registers.
 */
final class ReplicationThreads {

    private final ZeroSidedSwitch owner;
    private final SwitchRegisters r;

    ReplicationThreads(ZeroSidedSwitch owner) {
        this.owner = owner;
        this.r = owner.registers;
    }

    /** Step 1 of producer {@code p}'s thread. */
    int decide(int p) {
        if (r.removing[p]) {
            r.threadState[p] = ZeroSidedSwitch.THREAD_NONE;
            return 1;
        }
        int[] consumers = r.consumersOf[p];
        long available = r.head[p] - r.tail[p];
        boolean consumersFree = r.lockOwner[p] < 0;
        long minFree = Long.MAX_VALUE;
        long contiguous = r.capacity[p] - r.tail[p] % r.capacity[p];
        int fullest = -1;
        for (int c : consumers) {
            consumersFree &= r.lockOwner[c] < 0 && r.operation[c] == ZeroSidedSwitch.OP_NONE;
            long free = r.capacity[c] - (r.head[c] - r.tail[c]);
            if (free < minFree) {
                minFree = free;
                fullest = c;
            }
            contiguous = Math.min(contiguous, r.capacity[c] - r.head[c] % r.capacity[c]);
        }
        if (!consumersFree || !hasTurn(p)) {
            owner.recirculate(p);
            return 0;
        }
        if (available > 0 && minFree > 0) {
            start(p, Math.min(Math.min(available, minFree), Math.min(owner.maxBatchItems(p), contiguous)));
            return 1;
        }
        if (available > 0 && owner.pollDue(fullest)) {
            r.lockOwner[fullest] = p;
            owner.startPoll(fullest, p, ZeroSidedBufferDescriptor.TAIL_OFFSET);
            return 1;
        }
        if (available == 0 && r.ended[p]) {
            return end(p, consumers);
        }
        if (available == 0 && owner.pollDue(p)) {
            r.lockOwner[p] = p;
            owner.startPoll(p, p, ZeroSidedBufferDescriptor.HEAD_OFFSET);
            return 1;
        }
        owner.statistics().recirculations++;
        owner.recirculate(p);
        return 0;
    }

    /** Whether {@code p} may start a transfer: it is its turn, or the producer whose turn it is has nothing to send. */
    private boolean hasTurn(int p) {
        int[] producers = r.producersOf[p];
        int due = producers[r.roundRobin[producers[0]] % producers.length];
        return due == p || r.removing[due] || r.head[due] - r.tail[due] == 0;
    }

    private void passTurn(int p) {
        int[] producers = r.producersOf[p];
        for (int i = 0; i < producers.length; i++) {
            if (producers[i] == p) {
                r.roundRobin[producers[0]] = (i + 1) % producers.length;
                return;
            }
        }
    }

    private void start(int p, long items) {
        passTurn(p);
        int[] consumers = r.consumersOf[p];
        int bytes = (int) (items * r.itemBytes[p]);
        int packets = PacketDescriptor.packetCount(bytes, owner.config().mtuBytes());
        r.lockOwner[p] = p;
        r.threadState[p] = ZeroSidedSwitch.THREAD_BUSY;
        r.batchProducer[p] = p;
        r.batchItems[p] = items;
        r.pendingAcknowledgements[p] = consumers.length;
        owner.begin(p, p, ZeroSidedSwitch.OP_DATA_READ, packets, address(p, r.tail[p]), bytes, 0);
        r.deadlineNs[p] = Long.MAX_VALUE; // the consumers' deadlines cover the transfer
        for (int c : consumers) {
            r.lockOwner[c] = p;
            owner.begin(c, p, ZeroSidedSwitch.OP_DATA_WRITE, packets, address(c, r.head[c]), bytes, 0);
            r.deadlineNs[c] += (long) packets * ZeroSidedSwitch.PER_PACKET_TIMEOUT_NS;
            r.psnOffset[c] = Psn.distance(r.operationPsn[c], r.operationPsn[p]);
            owner.statistics().inFlightDataPackets += packets;
        }
        owner.sendReadRequest(p);
    }

    private long address(int endpoint, long position) {
        return r.baseAddress[endpoint]
                + ZeroSidedBufferDescriptor.slotOffset(position, r.capacity[endpoint], r.itemBytes[endpoint]);
    }

    /** Step 2: one response fragment to every consumer still waiting for this batch's data (multicast). */
    void forward(int p, PacketOpcode write, int responsePsn) {
        for (int c : r.consumersOf[p]) {
            if (r.operation[c] == ZeroSidedSwitch.OP_DATA_WRITE && r.operationThread[c] == p) {
                owner.forward(c, write, responsePsn);
            }
        }
    }

    /** Steps 3 to 5 and the end of stream, counting one ACK per consumer. */
    void onAcknowledged(int kind, int endpoint, int p) {
        int[] consumers = r.consumersOf[p];
        switch (kind) {
            case ZeroSidedSwitch.OP_DATA_WRITE -> {
                owner.statistics().inFlightDataPackets -= r.operationPackets[endpoint];
                owner.complete(endpoint);
                if (--r.pendingAcknowledgements[p] == 0) {
                    owner.complete(p);
                    r.pendingAcknowledgements[p] = consumers.length;
                    for (int c : consumers) {
                        owner.startPointerWrite(c, p, ZeroSidedSwitch.OP_HEAD_WRITE, r.head[c] + r.batchItems[p]);
                    }
                }
            }
            case ZeroSidedSwitch.OP_HEAD_WRITE -> {
                r.head[endpoint] = r.operationValue[endpoint];
                owner.complete(endpoint);
                if (--r.pendingAcknowledgements[p] == 0) {
                    owner.startPointerWrite(p, p, ZeroSidedSwitch.OP_TAIL_WRITE, r.tail[p] + r.batchItems[p]);
                }
            }
            case ZeroSidedSwitch.OP_TAIL_WRITE -> {
                r.tail[p] = r.operationValue[p];
                owner.complete(p);
                owner.unlock(p, p);
                SwitchStatistics statistics = owner.statistics();
                statistics.transfers++;
                statistics.itemsMoved += r.batchItems[p];
                statistics.bytesMoved += r.batchItems[p] * r.itemBytes[p];
                for (int c : consumers) {
                    owner.unlock(c, p);
                    r.itemsDelivered[c] += r.batchItems[p];
                }
                owner.recirculate(p);
            }
            case ZeroSidedSwitch.OP_END_WRITE -> {
                owner.complete(endpoint);
                owner.unlock(endpoint, p);
                owner.statistics().endsOfStream++;
                if (--r.pendingAcknowledgements[p] == 0) {
                    r.threadState[p] = ZeroSidedSwitch.THREAD_DONE;
                }
            }
            default -> owner.statistics().stalePackets++;
        }
    }

    /**
     * Producer {@code p} has ended and been drained: when every producer of the flow has, the last one's thread tells
     * the consumers (once per flow); the others just stop.
     */
    private int end(int p, int[] consumers) {
        for (int other : r.producersOf[p]) {
            if (!r.ended[other] || r.head[other] != r.tail[other]) {
                r.threadState[p] = ZeroSidedSwitch.THREAD_DONE;
                return 1;
            }
        }
        int flow = r.threadFlow[p];
        if (r.flowEnded[flow]) {
            r.threadState[p] = ZeroSidedSwitch.THREAD_DONE;
            return 1;
        }
        r.flowEnded[flow] = true;
        r.threadState[p] = ZeroSidedSwitch.THREAD_BUSY;
        r.pendingAcknowledgements[p] = consumers.length;
        for (int c : consumers) {
            r.lockOwner[c] = p;
            owner.startPointerWrite(
                    c, p, ZeroSidedSwitch.OP_END_WRITE, r.head[c] | ZeroSidedBufferDescriptor.END_OF_STREAM_BIT);
        }
        return 1;
    }
}
