package dev.faro.txn.node;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairAddress;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.txn.commit.VoteWord;
import dev.faro.txn.lock.LockMode;
import dev.faro.txn.mailbox.MailboxLayout;
import dev.faro.txn.mailbox.MessageDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A transaction-processing agent (ETH19 §5.2.1): runs one transaction at a time on the caller's thread, acquiring locks
 * one by one as the transaction needs them (one request outstanding, written with a notified put into its slot of the
 * owning server's mailbox; the answer lands in the agent's one-slot mailbox), reading and writing the data words under
 * those locks with one-sided READ and WRITE, and ending with strict 2PL: 2PC only when an X lock on another machine is
 * held (the participants vote with FETCH_ADD on the agent's vote word), then one end-of-transaction message to every
 * server contacted, which releases all the transaction's locks there.
 *
 * <pre>{@code
 * agent.begin(priority);
 * if (agent.lock(a, LockMode.X) && agent.lock(b, LockMode.X)) {
 *     agent.write(a, agent.read(a) - 10);
 *     agent.write(b, agent.read(b) + 10);
 *     committed = agent.commit();     // writes are applied only when the transaction commits
 * } else {
 *     agent.abort();                  // a lock was refused (NACK)
 * }
 * }</pre>
 *
 * <p>Agents block: a call returns when its answer came, as the thesis's agents wait in {@code MPI_Wait}. The wait polls
 * the completion queue and yields between polls for up to {@link LockManagerOptions#agentYield()}, then parks (see
 * {@link Backoff}: a park costs some 70 µs on Linux however short it asks to be). A fabric error or a server silent for
 * the response timeout throws {@link FaroException} (NETWORK or TIMEOUT) naming the server; the transaction is then
 * unresolved here, and the servers release its locks when they find the agent gone.
 *
 * <p>Data path: one thread per agent; allocation-free after construction.
 */
public final class TransactionAgent implements AutoCloseable {

    private static final int SEND_DEPTH = 8;
    private static final int RECEIVE_DEPTH = 4;
    private static final long KIND_RECEIVE = 1L << 32;
    private static final long KIND_SEND = 2L << 32;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final long MAX_RECORDED_NS = 60_000_000_000L;
    /**
     * Busy polls before the first yield: none. With more threads than cores an agent often shares its core with the
     * server it waits for, which runs only once the agent gives the core up; on a core of its own a yield returns in
     * ~0.6 µs, so polling between yields costs that much at most. Every role on one core ({@code taskset -c 0}, TPC-C,
     * loaded host), the median lock took 38–40 µs with 64 agent and 200 server spins, 12 µs with 16 and 16, 8–9 µs
     * with none.
     */
    private static final int SPINS = 0;

    private static final long MAX_PARK_NS = 50_000L;

    private final Topology topology;
    private final int agent;
    private final MemoryRegion region;
    private final CompletionQueue completionQueue;
    private final RcQueuePair[] queuePairs;
    private final RemoteKey[] serverMailboxes;
    private final RemoteKey[] serverData;
    private final WorkRequest request = new WorkRequest();
    private final MemorySegment staging = Arena.ofAuto().allocate(MessageDescriptor.SLOT_LENGTH, 8);
    private final MemorySegment stagingWord = staging.asSlice(0, 8);
    private final WorkCompletion[] completions = WorkCompletion.array(16);
    private final long responseTimeoutNs;
    private final Backoff backoff;
    private final AgentStatistics statistics = new AgentStatistics();

    /** Every lock acquisition's latency in ns (recording allocates nothing), local and remote apart. */
    private final Histogram localLockLatencies = new Histogram(MAX_RECORDED_NS, 2);

    private final Histogram remoteLockLatencies = new Histogram(MAX_RECORDED_NS, 2);

    // The running transaction.
    private int sequence;
    private long transaction;
    private long priority;
    private long startNs;
    private final boolean[] contacted;
    private final int[] contactedList;
    private int contactedCount;
    private boolean remoteExclusive;
    private long[] writeLocks = new long[16];
    private long[] writeValues = new long[16];
    private int writeCount;

    // The last lock request.
    private long lastLockLatencyNs;
    private long lastLockQueuedNs;
    private boolean lastLockRemote;

    // What the completion loop saw.
    private int outstandingSends;
    private int messagesReceived;
    private int lastSender;
    private boolean closed;

    TransactionAgent(Fabric fabric, Topology topology, int agent, LockManagerOptions options) {
        this.topology = topology;
        this.agent = agent;
        int servers = topology.servers();
        this.region = fabric.register(
                MailboxLayout.AGENT_REGION_LENGTH,
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        this.completionQueue = fabric.createCompletionQueue(servers * (SEND_DEPTH + RECEIVE_DEPTH));
        this.queuePairs = new RcQueuePair[servers];
        for (int server = 0; server < servers; server++) {
            queuePairs[server] =
                    fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, SEND_DEPTH, RECEIVE_DEPTH));
        }
        this.serverMailboxes = new RemoteKey[servers];
        this.serverData = new RemoteKey[servers];
        this.contacted = new boolean[servers];
        this.contactedList = new int[servers];
        this.responseTimeoutNs = options.responseTimeout().toNanos();
        this.backoff = new Backoff(SPINS, options.agentYield().toNanos(), MAX_PARK_NS);
    }

    /** This agent's global index. */
    public int index() {
        return agent;
    }

    public Topology topology() {
        return topology;
    }

    /** What this agent measured; read it from the agent's thread or after the agent stopped. */
    public AgentStatistics statistics() {
        return statistics;
    }

    /** The latencies of local lock acquisitions, ns; read it from the agent's thread or after the agent stopped. */
    public Histogram localLockLatencies() {
        return localLockLatencies;
    }

    /** The latencies of remote lock acquisitions, ns; as {@link #localLockLatencies()}. */
    public Histogram remoteLockLatencies() {
        return remoteLockLatencies;
    }

    /** Zeroes the statistics and latency histograms (the end of a warm-up). */
    public void resetStatistics() {
        statistics.reset();
        localLockLatencies.reset();
        remoteLockLatencies.reset();
    }

    RcQueuePair queuePair(int server) {
        return queuePairs[server];
    }

    MemoryRegion region() {
        return region;
    }

    /** Connects the queue pair to {@code server} and posts its receives. */
    void connect(int server, QueuePairAddress peer, RemoteKey mailbox, RemoteKey data) {
        queuePairs[server].connect(peer);
        serverMailboxes[server] = mailbox;
        serverData[server] = data;
        for (int i = 0; i < RECEIVE_DEPTH; i++) {
            queuePairs[server].postReceive(KIND_RECEIVE | server, region, 0, 0);
        }
    }

    /**
     * Starts a transaction: a new global id ({@code agent << 32 | sequence}).
     *
     * @param transactionPriority its age for WAIT_DIE (smaller is older); keep it when restarting an aborted one
     * @return the transaction id
     */
    public long begin(long transactionPriority) {
        if (transaction != 0) {
            throw new IllegalStateException(
                    "agent " + agent + ": transaction " + Long.toHexString(transaction) + " has not ended");
        }
        sequence = sequence == -1 ? 1 : sequence + 1;
        transaction = ((long) agent << 32) | (sequence & 0xFFFF_FFFFL);
        priority = transactionPriority;
        startNs = System.nanoTime();
        contactedCount = 0;
        remoteExclusive = false;
        writeCount = 0;
        return transaction;
    }

    /**
     * Acquires {@code lockId} in {@code mode}: one request to the owning server, then waits for its answer.
     *
     * @return true when granted; false on a NACK (the transaction should abort)
     */
    public boolean lock(long lockId, LockMode mode) {
        requireTransaction();
        int server = topology.serverOf(lockId);
        boolean remote = topology.isRemote(agent, lockId);
        contact(server);
        long start = System.nanoTime();
        send(server, MessageDescriptor.LOCK_REQUEST, mode.ordinal(), lockId, priority);
        awaitMessage(server, "a lock response");
        long latency = System.nanoTime() - start;
        MemorySegment mailbox = region.segment();
        int tag = MessageDescriptor.tag(mailbox, MailboxLayout.AGENT_MAILBOX_OFFSET);
        long queued = MessageDescriptor.queuedNs(mailbox, MailboxLayout.AGENT_MAILBOX_OFFSET);
        lastLockLatencyNs = latency;
        lastLockQueuedNs = queued;
        lastLockRemote = remote;
        statistics.lockRequests++;
        statistics.queuedNs += queued;
        statistics.processingNs += MessageDescriptor.processingNs(mailbox, MailboxLayout.AGENT_MAILBOX_OFFSET);
        if (remote) {
            statistics.remoteLocks++;
            statistics.remoteLockNs += latency;
            remoteLockLatencies.recordValue(Math.min(latency, MAX_RECORDED_NS));
        } else {
            statistics.localLocks++;
            statistics.localLockNs += latency;
            localLockLatencies.recordValue(Math.min(latency, MAX_RECORDED_NS));
        }
        if (tag == MessageDescriptor.GRANTED) {
            if (remote && mode == LockMode.X) {
                remoteExclusive = true;
            }
            return true;
        }
        if (tag != MessageDescriptor.DENIED) {
            throw new IllegalStateException(
                    "agent " + agent + ": unexpected answer tag " + tag + " from server " + server);
        }
        statistics.lockDenials++;
        return false;
    }

    /** The latency of the last {@link #lock} call, ns (request written to answer read). */
    public long lastLockLatencyNs() {
        return lastLockLatencyNs;
    }

    /** The time the last {@link #lock} request waited in its server's queue, ns (0 when granted at once). */
    public long lastLockQueuedNs() {
        return lastLockQueuedNs;
    }

    /** Whether the last {@link #lock} request went to a server of another node. */
    public boolean lastLockRemote() {
        return lastLockRemote;
    }

    /** Reads the data word of {@code lockId} (hold a lock on it) with one-sided READ. */
    public long read(long lockId) {
        requireTransaction();
        int server = topology.serverOf(lockId);
        long start = System.nanoTime();
        request.clear()
                .requestId(KIND_SEND | server)
                .opcode(Opcode.READ)
                .local(region, MailboxLayout.AGENT_SCRATCH_OFFSET, 8)
                .remote(serverData[server], 8 * (lockId - topology.firstLock(server)));
        post(server);
        awaitSends(server, "a data read");
        statistics.dataAccesses++;
        statistics.dataNs += System.nanoTime() - start;
        return region.segment().get(ValueLayout.JAVA_LONG, MailboxLayout.AGENT_SCRATCH_OFFSET);
    }

    /** Sets the data word of {@code lockId} (hold an X lock on it) when the transaction commits. */
    public void write(long lockId, long value) {
        requireTransaction();
        if (writeCount == writeLocks.length) {
            writeLocks = java.util.Arrays.copyOf(writeLocks, writeCount * 2);
            writeValues = java.util.Arrays.copyOf(writeValues, writeCount * 2);
        }
        writeLocks[writeCount] = lockId;
        writeValues[writeCount] = value;
        writeCount++;
    }

    /**
     * Ends the transaction: 2PC when an X lock on another machine is held (every contacted server votes), then, on
     * commit, the buffered writes (one-sided WRITE), then the end-of-transaction message to every contacted server.
     *
     * @return true when committed; false when a participant voted no (the transaction aborted)
     */
    public boolean commit() {
        requireTransaction();
        boolean commits = true;
        if (remoteExclusive) {
            commits = vote();
        }
        if (commits && writeCount > 0) {
            applyWrites();
        }
        end(commits);
        return commits;
    }

    /** Aborts the transaction: the end-of-transaction message (abort) to every contacted server; no write applied. */
    public void abort() {
        requireTransaction();
        end(false);
    }

    /** Whether a transaction is running. */
    public boolean inTransaction() {
        return transaction != 0;
    }

    /**
     * One round trip through the same mailboxes as a lock request, answered by the server without touching its table:
     * the fabric's round trip as this protocol sees it. Outside a transaction.
     *
     * @return the round trip in ns
     */
    public long ping(int server) {
        if (transaction != 0) {
            throw new IllegalStateException("agent " + agent + ": ping inside a transaction");
        }
        long start = System.nanoTime();
        send(server, MessageDescriptor.PING, 0, 0, 0);
        awaitMessage(server, "a ping");
        return System.nanoTime() - start;
    }

    private boolean vote() {
        long start = System.nanoTime();
        MemorySegment segment = region.segment();
        WORD.setRelease(segment, (long) MailboxLayout.AGENT_VOTE_OFFSET, 0L);
        for (int i = 0; i < contactedCount; i++) {
            send(contactedList[i], MessageDescriptor.VOTE_REQUEST, 0, 0, 0);
        }
        long deadline = start + responseTimeoutNs;
        int spins = 0;
        long word;
        backoff.reset();
        while (!VoteWord.complete(
                word = (long) WORD.getAcquire(segment, (long) MailboxLayout.AGENT_VOTE_OFFSET), contactedCount)) {
            drain();
            backoff.idle();
            if ((++spins & 0x3F) == 0 && System.nanoTime() - deadline > 0) {
                throw new FaroException(
                        FaroException.Category.TIMEOUT,
                        "agent " + agent + ": " + VoteWord.yesVotes(word) + " yes and " + VoteWord.noVotes(word)
                                + " no votes of " + contactedCount + " participants after "
                                + TimeUnit.NANOSECONDS.toMillis(responseTimeoutNs) + " ms");
            }
        }
        backoff.reset();
        statistics.votes++;
        statistics.voteParticipants += contactedCount;
        statistics.voteNs += System.nanoTime() - start;
        boolean commits = VoteWord.commits(word, contactedCount);
        if (!commits) {
            statistics.abortedByVote++;
        }
        return commits;
    }

    private void applyWrites() {
        long start = System.nanoTime();
        for (int i = 0; i < writeCount; i++) {
            long lockId = writeLocks[i];
            int server = topology.serverOf(lockId);
            if (outstandingSends >= SEND_DEPTH - 1) {
                awaitSends(server, "data writes"); // never more posted than a send queue holds
            }
            staging.set(ValueLayout.JAVA_LONG, 0, writeValues[i]);
            request.clear()
                    .requestId(KIND_SEND | server)
                    .opcode(Opcode.WRITE)
                    .inline(stagingWord)
                    .remote(serverData[server], 8 * (lockId - topology.firstLock(server)));
            post(server);
        }
        awaitSends(topology.serverOf(writeLocks[0]), "data writes");
        statistics.dataAccesses += writeCount;
        statistics.dataNs += System.nanoTime() - start;
    }

    private void end(boolean committed) {
        long start = System.nanoTime();
        int before = messagesReceived;
        for (int i = 0; i < contactedCount; i++) {
            send(contactedList[i], MessageDescriptor.END_OF_TRANSACTION, committed ? 1 : 0, 0, 0);
        }
        long deadline = start + responseTimeoutNs;
        while (messagesReceived - before < contactedCount) {
            waitOnce(deadline, contactedCount == 0 ? 0 : contactedList[0], "end-of-transaction acknowledgments");
        }
        long now = System.nanoTime();
        if (contactedCount > 0) {
            statistics.cleanUps++;
            statistics.cleanUpNs += now - start;
        }
        statistics.transactionNs += now - startNs;
        if (committed) {
            statistics.committed++;
        } else {
            statistics.aborted++;
        }
        for (int i = 0; i < contactedCount; i++) {
            contacted[contactedList[i]] = false;
        }
        contactedCount = 0;
        transaction = 0;
    }

    private void contact(int server) {
        if (!contacted[server]) {
            contacted[server] = true;
            contactedList[contactedCount++] = server;
        }
    }

    private void send(int server, int tag, int mode, long lockId, long aux) {
        MessageDescriptor.write(staging, tag, mode, lockId, transaction, aux);
        request.clear()
                .requestId(KIND_SEND | server)
                .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                .inline(staging)
                .remote(serverMailboxes[server], MailboxLayout.serverSlotOffset(agent))
                .immediate(agent);
        post(server);
    }

    private void post(int server) {
        queuePairs[server].postSend(request);
        outstandingSends++;
    }

    /** Waits for one message from {@code server} (the only one that may write now). */
    private void awaitMessage(int server, String what) {
        int before = messagesReceived;
        long deadline = System.nanoTime() + responseTimeoutNs;
        while (messagesReceived == before) {
            waitOnce(deadline, server, what);
        }
        if (lastSender != server) {
            throw new IllegalStateException(
                    "agent " + agent + ": waited for server " + server + " but server " + lastSender + " wrote");
        }
    }

    /** Waits until every posted send, write, read and atomic has completed. */
    private void awaitSends(int server, String what) {
        long deadline = System.nanoTime() + responseTimeoutNs;
        while (outstandingSends > 0) {
            waitOnce(deadline, server, what);
        }
    }

    private void waitOnce(long deadlineNs, int server, String what) {
        long remaining = deadlineNs - System.nanoTime();
        if (remaining <= 0) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT,
                    "agent " + agent + ": no " + what + " from lock server " + server + " (node "
                            + topology.nodeOfServer(server) + ") within "
                            + TimeUnit.NANOSECONDS.toMillis(responseTimeoutNs) + " ms");
        }
        int polled = completionQueue.poll(completions);
        if (polled > 0) {
            backoff.reset();
            handle(polled);
        } else {
            backoff.idle();
        }
    }

    private void drain() {
        handle(completionQueue.poll(completions));
    }

    private void handle(int polled) {
        for (int i = 0; i < polled; i++) {
            WorkCompletion completion = completions[i];
            int server = (int) completion.requestId();
            if (completion.status() != CompletionStatus.SUCCESS) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "agent " + agent + ": lock server " + server + " (node " + topology.nodeOfServer(server)
                                + ") is unreachable: " + completion.status() + " on " + completion.opcode());
            }
            if (completion.opcode() == Opcode.RECEIVE_WRITE_WITH_IMMEDIATE) {
                if ((completion.immediate() & MessageDescriptor.FAILED_IMMEDIATE_FLAG) != 0) {
                    int failed = completion.immediate() & ~MessageDescriptor.FAILED_IMMEDIATE_FLAG;
                    throw new FaroException(
                            FaroException.Category.NETWORK,
                            "agent " + agent + ": lock server " + failed + " (node " + topology.nodeOfServer(failed)
                                    + ") failed; its node reports why");
                }
                queuePairs[server].postReceive(KIND_RECEIVE | server, region, 0, 0);
                lastSender = completion.immediate();
                messagesReceived++;
            } else {
                outstandingSends--;
            }
        }
    }

    private void requireTransaction() {
        if (transaction == 0) {
            throw new IllegalStateException("agent " + agent + ": no transaction; call begin first");
        }
    }

    /**
     * Closes the queue pairs, queue and region without ending a running transaction: for shutdown, and in tests as a
     * killed agent (the servers then find it gone and release its locks). Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (RcQueuePair queuePair : queuePairs) {
            queuePair.close();
        }
        completionQueue.close();
        region.close();
    }
}
