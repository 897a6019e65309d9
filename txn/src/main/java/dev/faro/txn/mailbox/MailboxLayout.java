package dev.faro.txn.mailbox;

/**
 * The registered regions of the lock manager's two roles (ETH19 Fig. 5.4: "two windows" per process, the mailbox and
 * the vote word).
 *
 * <pre>
 * agent region ({@link #AGENT_REGION_LENGTH} B)
 *  0                         32          128        136         256        264        320        328
 *  +-------------------------+---  ...  ---+----------+--- ... ---+----------+-- ... --+----------+
 *  | mailbox slot (32 B)     |   padding   | vote word|  padding  | scratch  | padding | notice   |
 *  +-------------------------+---  ...  ---+----------+--- ... ---+----------+-- ... --+----------+
 *  mailbox: written by any lock server (WRITE_WITH_IMMEDIATE, immediate = server index), read by the agent after the
 *           receive completion; one outstanding request, so one slot (acknowledgments of an end of transaction may
 *           overwrite each other: only their notifications are counted)
 *  vote word: zeroed by the agent (release), then FETCH_ADDed by the participants (see commit.VoteWord), read by
 *           the agent with acquire
 *  scratch: the destination of the agent's own READs of data words
 *  notice: the target of a failing server's last WRITE_WITH_IMMEDIATE (immediate = server index with
 *           MessageDescriptor.FAILED_IMMEDIATE_FLAG); never read: the notification is the message, and writing here
 *           leaves the mailbox slot to the other servers' answers
 *
 * server mailbox region (agents × 32 B slots, then agents × 8 B atomic results, then agents × 8 B probe results)
 *  slot a: written by agent a only (WRITE_WITH_IMMEDIATE, immediate = a), read by the server after the completion
 *  atomic result a: the old vote word of the server's FETCH_ADD on agent a (written locally by the fabric)
 *  probe result a: the destination of the server's liveness READ of agent a's mailbox
 * </pre>
 */
public final class MailboxLayout {

    public static final int AGENT_MAILBOX_OFFSET = 0;
    public static final int AGENT_VOTE_OFFSET = 128;
    public static final int AGENT_SCRATCH_OFFSET = 256;
    public static final int AGENT_NOTICE_OFFSET = 320;
    public static final int AGENT_REGION_LENGTH = 384;

    private MailboxLayout() {}

    /** The offset of agent {@code agent}'s slot in a server mailbox. */
    public static long serverSlotOffset(int agent) {
        return (long) agent * MessageDescriptor.SLOT_LENGTH;
    }

    /** The offset of the atomic-result word for {@code agent} in a server mailbox of {@code agents} slots. */
    public static long serverAtomicOffset(int agents, int agent) {
        return align((long) agents * MessageDescriptor.SLOT_LENGTH) + 8L * agent;
    }

    /** The offset of the probe-result word for {@code agent} in a server mailbox of {@code agents} slots. */
    public static long serverProbeOffset(int agents, int agent) {
        return align(serverAtomicOffset(agents, agents)) + 8L * agent;
    }

    /** The length of a server mailbox region of {@code agents} slots. */
    public static long serverRegionLength(int agents) {
        return serverProbeOffset(agents, agents);
    }

    private static long align(long offset) {
        return (offset + 127) & ~127L;
    }
}
