package dev.faro.txn.mailbox;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout of one mailbox slot (ETH19 §5.2.3, Fig. 5.4): the message a transaction agent writes into its slot of a
 * lock server's mailbox, or a lock server into an agent's single slot, with one WRITE_WITH_IMMEDIATE whose immediate
 * names the writer (the agent's or server's global index), so the receiver reads that one slot and never scans.
 *
 * <pre>
 *  0               4               8                              16
 *  +---------------+---------------+------------------------------+
 *  |      tag      |     mode      |            lockId            |
 *  +---------------+---------------+------------------------------+
 *  |         transactionId         |  aux: request: priority;     |
 *  |                               |  response: queuedNs|procNs   |
 *  +-------------------------------+------------------------------+
 *  16                              24                             32
 * </pre>
 *
 * All fields little-endian (native order on the platforms Faro runs on). Writer: the remote peer, through one inline
 * WRITE_WITH_IMMEDIATE of all {@value #SLOT_LENGTH} bytes; reader: the mailbox owner's thread, after polling the
 * receive completion that the same request produced (so the whole slot has landed). A slot is reused only after the
 * writer saw the reader's answer (a response, an acknowledgment, or a vote on the agent's word), so one slot per
 * writer suffices.
 *
 * <p>Data path: static accessors on a segment, allocation-free.
 */
public final class MessageDescriptor {

    /** Bytes per slot. */
    public static final int SLOT_LENGTH = 32;

    public static final int TAG_OFFSET = 0;
    public static final int MODE_OFFSET = 4;
    public static final int LOCK_ID_OFFSET = 8;
    public static final int TRANSACTION_OFFSET = 16;
    public static final int AUX_OFFSET = 24;
    public static final int QUEUED_NS_OFFSET = 24;
    public static final int PROCESSING_NS_OFFSET = 28;

    /** Agent to server: acquire {@code lockId} in {@code mode}; aux is the transaction's WAIT_DIE priority. */
    public static final int LOCK_REQUEST = 1;

    /** Agent to server: vote on the transaction, by a FETCH_ADD on the agent's vote word. */
    public static final int VOTE_REQUEST = 2;

    /** Agent to server: the transaction ended (mode = 1 commit, 0 abort); release its locks and acknowledge. */
    public static final int END_OF_TRANSACTION = 3;

    /** Agent to server: answer at once, touching nothing (the fabric's round trip through the same mailboxes). */
    public static final int PING = 4;

    /** Server to agent: the lock was granted; aux carries the queue and processing times. */
    public static final int GRANTED = 11;

    /** Server to agent: the lock was refused (NACK: timeout, NO_WAIT, WAIT_DIE). */
    public static final int DENIED = 12;

    /** Server to agent: the end of transaction was applied. */
    public static final int ACKNOWLEDGED = 13;

    /** Server to agent: the answer to a PING. */
    public static final int PONG = 14;

    /**
     * Server to agent: set in the immediate (with the server's index) of the notice a lock server sends every agent
     * when its thread fails, so that agents fail at once instead of at their response timeout. The notice is 8 bytes
     * into the agent's notice word ({@code MailboxLayout.AGENT_NOTICE_OFFSET}), never into its mailbox slot.
     */
    public static final int FAILED_IMMEDIATE_FLAG = 1 << 30;

    private MessageDescriptor() {}

    /** Writes a whole message into {@code slot} (a staging segment of {@link #SLOT_LENGTH} bytes). */
    public static void write(MemorySegment slot, int tag, int mode, long lockId, long transactionId, long aux) {
        slot.set(ValueLayout.JAVA_INT_UNALIGNED, TAG_OFFSET, tag);
        slot.set(ValueLayout.JAVA_INT_UNALIGNED, MODE_OFFSET, mode);
        slot.set(ValueLayout.JAVA_LONG_UNALIGNED, LOCK_ID_OFFSET, lockId);
        slot.set(ValueLayout.JAVA_LONG_UNALIGNED, TRANSACTION_OFFSET, transactionId);
        slot.set(ValueLayout.JAVA_LONG_UNALIGNED, AUX_OFFSET, aux);
    }

    /** A response's aux word: the queue and processing times in ns, each saturated to 31 bits. */
    public static long timings(long queuedNs, long processingNs) {
        return (saturate(processingNs) << 32) | saturate(queuedNs);
    }

    private static long saturate(long ns) {
        return Math.max(0, Math.min(Integer.MAX_VALUE, ns));
    }

    public static int tag(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_INT_UNALIGNED, slotOffset + TAG_OFFSET);
    }

    public static int mode(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_INT_UNALIGNED, slotOffset + MODE_OFFSET);
    }

    public static long lockId(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_LONG_UNALIGNED, slotOffset + LOCK_ID_OFFSET);
    }

    public static long transactionId(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_LONG_UNALIGNED, slotOffset + TRANSACTION_OFFSET);
    }

    public static long aux(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_LONG_UNALIGNED, slotOffset + AUX_OFFSET);
    }

    public static int queuedNs(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_INT_UNALIGNED, slotOffset + QUEUED_NS_OFFSET);
    }

    public static int processingNs(MemorySegment mailbox, long slotOffset) {
        return mailbox.get(ValueLayout.JAVA_INT_UNALIGNED, slotOffset + PROCESSING_NS_OFFSET);
    }
}
