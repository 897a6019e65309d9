package dev.faro.txn.commit;

/**
 * The 2PC vote word (ETH19 §5.2.3): one 64-bit integer in the coordinating agent's registered memory, zeroed before
 * the vote requests go out; every participant adds its vote with one remote FETCH_ADD: {@link #YES} (+1, the low 32
 * bits count yes votes) or {@link #NO} (+2^32, the high 32 bits count no votes). The coordinator reads the word until
 * both counts add up to the number of participants; no software runs at the coordinator for a vote.
 *
 * <pre>
 *  63                  32 31                   0
 *  +---------------------+---------------------+
 *  |   no votes (u32)    |   yes votes (u32)   |
 *  +---------------------+---------------------+
 * </pre>
 */
public final class VoteWord {

    /** A participant's yes: the FETCH_ADD operand. */
    public static final long YES = 1L;

    /** A participant's no: the FETCH_ADD operand. */
    public static final long NO = 1L << 32;

    private VoteWord() {}

    /** The FETCH_ADD operand of a vote. */
    public static long operand(boolean yes) {
        return yes ? YES : NO;
    }

    public static int yesVotes(long word) {
        return (int) word;
    }

    public static int noVotes(long word) {
        return (int) (word >>> 32);
    }

    /** Whether all {@code participants} have voted. */
    public static boolean complete(long word, int participants) {
        return (long) yesVotes(word) + noVotes(word) >= participants;
    }

    /** The decision once complete: commit only when every participant voted yes. */
    public static boolean commits(long word, int participants) {
        return noVotes(word) == 0 && yesVotes(word) == participants;
    }
}
