package dev.faro.txn.node;

/**
 * What a transaction agent measured (ETH19 Fig. 5.6's breakdown): transactions and their outcomes, lock requests with
 * their latency split into communication, queue and server processing, local and remote separately, votes, clean-up
 * (end of transaction until every server acknowledged) and one-sided data access. Sums in ns; means follow by division.
 *
 * <p>Written by the agent's thread only; {@link #add} merges copies for reports (coordination code).
 */
public final class AgentStatistics {

    public long committed;
    public long aborted;
    public long abortedByVote;
    public long lockRequests;
    public long lockDenials;
    public long localLocks;
    public long localLockNs;
    public long remoteLocks;
    public long remoteLockNs;
    public long queuedNs;
    public long processingNs;
    public long votes;
    public long voteParticipants;
    public long voteNs;
    public long cleanUps;
    public long cleanUpNs;
    public long dataAccesses;
    public long dataNs;
    public long transactionNs;

    /** The names of the counters, in the order of {@link #values()}. */
    public static final java.util.List<String> FIELDS = java.util.List.of(
            "committed",
            "aborted",
            "abortedByVote",
            "lockRequests",
            "lockDenials",
            "localLocks",
            "localLockNs",
            "remoteLocks",
            "remoteLockNs",
            "queuedNs",
            "processingNs",
            "votes",
            "voteParticipants",
            "voteNs",
            "cleanUps",
            "cleanUpNs",
            "dataAccesses",
            "dataNs",
            "transactionNs");

    /** The counters in the order of {@link #FIELDS} (for reports and the wire). */
    public long[] values() {
        return new long[] {
            committed,
            aborted,
            abortedByVote,
            lockRequests,
            lockDenials,
            localLocks,
            localLockNs,
            remoteLocks,
            remoteLockNs,
            queuedNs,
            processingNs,
            votes,
            voteParticipants,
            voteNs,
            cleanUps,
            cleanUpNs,
            dataAccesses,
            dataNs,
            transactionNs
        };
    }

    /** Statistics from {@link #values()}. */
    public static AgentStatistics of(long[] values) {
        if (values.length != FIELDS.size()) {
            throw new IllegalArgumentException("expected " + FIELDS.size() + " values, got " + values.length);
        }
        AgentStatistics statistics = new AgentStatistics();
        statistics.committed = values[0];
        statistics.aborted = values[1];
        statistics.abortedByVote = values[2];
        statistics.lockRequests = values[3];
        statistics.lockDenials = values[4];
        statistics.localLocks = values[5];
        statistics.localLockNs = values[6];
        statistics.remoteLocks = values[7];
        statistics.remoteLockNs = values[8];
        statistics.queuedNs = values[9];
        statistics.processingNs = values[10];
        statistics.votes = values[11];
        statistics.voteParticipants = values[12];
        statistics.voteNs = values[13];
        statistics.cleanUps = values[14];
        statistics.cleanUpNs = values[15];
        statistics.dataAccesses = values[16];
        statistics.dataNs = values[17];
        statistics.transactionNs = values[18];
        return statistics;
    }

    /** Adds {@code other}'s counts and sums to this one. */
    public void add(AgentStatistics other) {
        committed += other.committed;
        aborted += other.aborted;
        abortedByVote += other.abortedByVote;
        lockRequests += other.lockRequests;
        lockDenials += other.lockDenials;
        localLocks += other.localLocks;
        localLockNs += other.localLockNs;
        remoteLocks += other.remoteLocks;
        remoteLockNs += other.remoteLockNs;
        queuedNs += other.queuedNs;
        processingNs += other.processingNs;
        votes += other.votes;
        voteParticipants += other.voteParticipants;
        voteNs += other.voteNs;
        cleanUps += other.cleanUps;
        cleanUpNs += other.cleanUpNs;
        dataAccesses += other.dataAccesses;
        dataNs += other.dataNs;
        transactionNs += other.transactionNs;
    }

    /** Zeroes everything (at the end of a warm-up). */
    public void reset() {
        committed = 0;
        aborted = 0;
        abortedByVote = 0;
        lockRequests = 0;
        lockDenials = 0;
        localLocks = 0;
        localLockNs = 0;
        remoteLocks = 0;
        remoteLockNs = 0;
        queuedNs = 0;
        processingNs = 0;
        votes = 0;
        voteParticipants = 0;
        voteNs = 0;
        cleanUps = 0;
        cleanUpNs = 0;
        dataAccesses = 0;
        dataNs = 0;
        transactionNs = 0;
    }

    /** Transactions that ended. */
    public long transactions() {
        return committed + aborted;
    }

    /** Mean lock latency (request written to response read) in µs, local and remote together. */
    public double meanLockMicros() {
        return micros(localLockNs + remoteLockNs, localLocks + remoteLocks);
    }

    public double meanLocalLockMicros() {
        return micros(localLockNs, localLocks);
    }

    public double meanRemoteLockMicros() {
        return micros(remoteLockNs, remoteLocks);
    }

    /** Mean time a request waited in the server's queue, µs per lock request. */
    public double meanQueueMicros() {
        return micros(queuedNs, localLocks + remoteLocks);
    }

    /** Mean server processing per lock request, µs. */
    public double meanProcessingMicros() {
        return micros(processingNs, localLocks + remoteLocks);
    }

    /** Mean communication per lock request (latency less queue and processing), µs. */
    public double meanCommunicationMicros() {
        return meanLockMicros() - meanQueueMicros() - meanProcessingMicros();
    }

    public double meanVoteMicros() {
        return micros(voteNs, votes);
    }

    public double meanCleanUpMicros() {
        return micros(cleanUpNs, cleanUps);
    }

    public double meanTransactionMicros() {
        return micros(transactionNs, transactions());
    }

    private static double micros(long ns, long count) {
        return count == 0 ? 0 : ns / 1_000.0 / count;
    }
}
