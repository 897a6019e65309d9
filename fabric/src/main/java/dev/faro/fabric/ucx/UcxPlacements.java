package dev.faro.fabric.ucx;

import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Opcode;
import org.openucx.jucx.ucp.UcpAmData;

/**
 * The receives of one queue pair that messages were placed into but whose completions wait, in arrival order: a
 * rendezvous SEND whose bytes UCX is still fetching ({@code ucp_am_recv_data_nbx}), and any message that arrived
 * behind one. Several fetches run at once (each takes a round trip to the sender; one at a time held a 64 KiB SEND
 * stream to a third of what the transport moves), and completions are published strictly in arrival order, as a NIC
 * does: a fetch that lands early waits for the ones before it.
 *
 * <p>Progress thread only. Data path: allocation-free once every entry was used (entries are made on first use).
 */
final class UcxPlacements {

    private final UcxReceiver receiver;
    private final Entry[] ring;
    private int head;
    private int count;
    /** Tags fetches, so a report for an entry that was reused (after a failure) is ignored. */
    private long nextTag = 1;

    UcxPlacements(UcxReceiver receiver, int capacity) {
        this.receiver = receiver;
        this.ring = new Entry[capacity];
    }

    boolean isEmpty() {
        return count == 0;
    }

    boolean isFull() {
        return count == ring.length;
    }

    /**
     * Appends a receive whose outcome is known already: SUCCESS for an eager SEND or a notification behind a fetch,
     * LOCAL_LENGTH_ERROR for a SEND larger than its receive.
     */
    void addPlaced(
            long requestId,
            UcxMemoryRegion region,
            CompletionStatus status,
            Opcode opcode,
            int length,
            int immediate,
            boolean hasImmediate,
            long psn,
            long sourceNode,
            int sourceQpn) {
        append(requestId, region, opcode, length, immediate, hasImmediate, psn, sourceNode, sourceQpn).status = status;
    }

    /**
     * Appends a rendezvous SEND and starts fetching {@code data}'s bytes into {@code region} at {@code address}; its
     * completion is published once they landed and every earlier entry was published.
     */
    void addFetch(
            long requestId,
            UcxMemoryRegion region,
            long address,
            int length,
            UcxPeer from,
            UcpAmData data,
            long psn,
            long sourceNode,
            int sourceQpn,
            UcpRequests requests) {
        Entry entry = append(requestId, region, Opcode.RECEIVE, length, 0, false, psn, sourceNode, sourceQpn);
        entry.status = null;
        requests.receiveData(from, data, address, length, region.memoryHandle, entry.fetched, entry.tag);
    }

    private Entry append(
            long requestId,
            UcxMemoryRegion region,
            Opcode opcode,
            int length,
            int immediate,
            boolean hasImmediate,
            long psn,
            long sourceNode,
            int sourceQpn) {
        int index = (head + count) % ring.length;
        Entry entry = ring[index];
        if (entry == null) {
            entry = ring[index] = new Entry();
        }
        entry.tag = nextTag++;
        entry.requestId = requestId;
        entry.region = region;
        entry.opcode = opcode;
        entry.length = length;
        entry.immediate = immediate;
        entry.hasImmediate = hasImmediate;
        entry.psn = psn;
        entry.sourceNode = sourceNode;
        entry.sourceQpn = sourceQpn;
        count++;
        return entry;
    }

    /** Publishes the completions at the head whose bytes are in place (or whose fetch failed). */
    private void publish() {
        while (count > 0) {
            Entry entry = ring[head];
            if (entry.status == null) {
                return; // still fetching
            }
            head = (head + 1) % ring.length;
            count--;
            UcxMemoryRegion region = entry.region;
            entry.region = null;
            entry.tag = 0;
            receiver.placedInOrder(
                    entry.requestId,
                    region,
                    entry.status,
                    entry.opcode,
                    entry.length,
                    entry.immediate,
                    entry.hasImmediate,
                    entry.psn,
                    entry.sourceNode,
                    entry.sourceQpn);
        }
    }

    /** One receive waiting for its completion. */
    private final class Entry {
        long tag;
        /** null while fetching. */
        CompletionStatus status;

        long requestId;
        UcxMemoryRegion region;
        Opcode opcode;
        int length;
        int immediate;
        boolean hasImmediate;
        long psn;
        long sourceNode;
        int sourceQpn;

        final UcpRequests.Completion fetched = new UcpRequests.OneAtATime() { // one fetch at a time per entry
                    @Override
                    public void completed(long issuedFor, int ucsStatus) {
                        if (issuedFor != tag) {
                            return;
                        }
                        status = ucsStatus == UcpRequests.OK
                                ? CompletionStatus.SUCCESS
                                : CompletionStatus.RETRY_EXCEEDED;
                        publish();
                    }
                };
    }
}
