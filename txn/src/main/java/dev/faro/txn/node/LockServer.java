package dev.faro.txn.node;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionQueue;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairConfig;
import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkCompletion;
import dev.faro.fabric.WorkRequest;
import dev.faro.txn.commit.VoteWord;
import dev.faro.txn.lock.GrantSink;
import dev.faro.txn.lock.LockMode;
import dev.faro.txn.lock.LockTable;
import dev.faro.txn.mailbox.MailboxLayout;
import dev.faro.txn.mailbox.MessageDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A lock-server agent (ETH19 §5.2.2): owns one range of the lock table and the data words of its locks (in registered
 * memory that transaction agents read and write one-sidedly), and a mailbox with one slot per transaction agent. Its
 * thread polls the completion queue of its queue pairs (one RC queue pair per agent); every receive completion names
 * the writing agent in its immediate, so the server reads that slot only. It answers lock requests (at once, or later
 * from the lock table's {@link GrantSink}), votes on the agent's vote word with one FETCH_ADD, releases everything at
 * an end of transaction and acknowledges it. When idle it runs the lock table's bounded-wait check and probes agents
 * that hold locks but have been silent for a while (a one-sided READ of their mailbox: a failed READ means the agent is
 * gone, and its locks are released).
 *
 * <p>Data path: the polling thread is the only one touching the table and the send side; allocation-free after
 * construction. Other threads call {@link #start}, {@link #close} and the counters.
 */
public final class LockServer implements GrantSink, AutoCloseable {

    private static final int SEND_DEPTH = 8;
    private static final int RECEIVE_DEPTH = 4;
    private static final long KIND_RECEIVE = 1L << 32;
    private static final long KIND_SEND = 2L << 32;
    private static final long KIND_PROBE = 3L << 32;
    private static final long EXPIRE_INTERVAL_NS = 1_000_000L;
    /** Busy polls before the first idle yield: none, as the agents' (see {@code TransactionAgent.SPINS}). */
    private static final int IDLE_SPINS = 0;

    private static final long IDLE_YIELD_NS = 100_000L;
    private static final long IDLE_MAX_PARK_NS = 20_000L;
    private static final VarHandle LOCK_REQUESTS = counter("lockRequests");
    private static final VarHandle PROCESSING_NS = counter("processingNs");
    private static final VarHandle ABANDONED_AGENTS = counter("abandonedAgents");

    private final Topology topology;
    private final int server;
    private final LockManagerOptions options;
    private final LockTable table;
    private final MemoryRegion mailbox;
    private final MemoryRegion data;
    private final CompletionQueue completionQueue;
    private final RcQueuePair[] queuePairs;
    private final RemoteKey[] agentKeys;
    private final long[] lastHeardNs;
    private final boolean[] probing;
    private final boolean[] gone;
    private final boolean[] abandoned;
    private boolean abandonPending;
    private final WorkRequest request = new WorkRequest();
    private final MemorySegment staging = Arena.ofAuto().allocate(MessageDescriptor.SLOT_LENGTH, 8);
    private final WorkCompletion[] completions = WorkCompletion.array(32);
    private final SplittableRandom faults;
    private final long probeIntervalNs;
    private final long maxDelayNs;
    private final boolean busyPolling;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private volatile boolean running;
    private volatile RuntimeException injectedFailure;
    private Thread thread;
    private long lastExpireNs;
    private long lastProbeNs;

    // Counters: written by the server thread only, with opaque stores (no fence per request: a volatile increment
    // would be one); read by others with opaque loads, so approximate while running.
    private long lockRequests;
    private long processingNs;
    private long abandonedAgents;

    LockServer(Fabric fabric, Topology topology, int server, LockManagerOptions options) {
        this.topology = topology;
        this.server = server;
        this.options = options;
        int agents = topology.agents();
        this.table = new LockTable(
                topology.firstLock(server),
                topology.locksPerServer(),
                agents,
                options.policy(),
                options.lockTimeout().toNanos(),
                this);
        this.mailbox = fabric.register(
                MailboxLayout.serverRegionLength(agents),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
        this.data = fabric.register(
                8L * topology.locksPerServer(),
                EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE));
        this.completionQueue = fabric.createCompletionQueue(agents * (SEND_DEPTH + RECEIVE_DEPTH));
        this.queuePairs = new RcQueuePair[agents];
        for (int agent = 0; agent < agents; agent++) {
            queuePairs[agent] =
                    fabric.createRcQueuePair(QueuePairConfig.of(completionQueue, SEND_DEPTH, RECEIVE_DEPTH));
        }
        this.agentKeys = new RemoteKey[agents];
        this.lastHeardNs = new long[agents];
        this.probing = new boolean[agents];
        this.gone = new boolean[agents];
        this.abandoned = new boolean[agents];
        this.faults = new SplittableRandom(options.seed() * 31 + server);
        this.probeIntervalNs = options.probeInterval().toNanos();
        this.maxDelayNs = options.maxInjectedDelay().toNanos();
        this.busyPolling = options.busyPolling();
    }

    /** This server's global index. */
    public int index() {
        return server;
    }

    /** The data words of this server's locks: word i belongs to lock {@code firstLock + i} (8 bytes each). */
    public MemorySegment data() {
        return data.segment();
    }

    RcQueuePair queuePair(int agent) {
        return queuePairs[agent];
    }

    MemoryRegion mailboxRegion() {
        return mailbox;
    }

    MemoryRegion dataRegion() {
        return data;
    }

    /** Connects the queue pair of {@code agent} and posts its receives; before {@link #start}. */
    void connect(int agent, dev.faro.fabric.QueuePairAddress peer, RemoteKey agentMailbox) {
        queuePairs[agent].connect(peer);
        agentKeys[agent] = agentMailbox;
        for (int i = 0; i < RECEIVE_DEPTH; i++) {
            postReceive(agent);
        }
    }

    /** Starts the polling thread. */
    void start() {
        running = true;
        thread = Thread.ofPlatform()
                .name("faro-lock-server-" + server)
                .daemon(true)
                .start(this::run);
    }

    private void run() {
        CpuAffinity.pin(options.cpus()); // nothing when the options name none
        Backoff backoff = new Backoff(IDLE_SPINS, busyPolling ? Long.MAX_VALUE : IDLE_YIELD_NS, IDLE_MAX_PARK_NS);
        try {
            while (running) {
                long now = System.nanoTime();
                int work = doWork(now);
                if (work > 0) {
                    backoff.reset();
                } else if (injectedFailure != null) {
                    throw injectedFailure;
                } else {
                    backoff.idle();
                }
            }
        } catch (Throwable t) {
            if (running) {
                failure.compareAndSet(null, t);
                noticeAgents();
            }
            if (t instanceof Error error) {
                throw error;
            }
        }
    }

    /**
     * Tells every agent that this server failed (best effort: one WRITE_WITH_IMMEDIATE to its notice word, the immediate
     * flagged with {@link MessageDescriptor#FAILED_IMMEDIATE_FLAG}), so that an agent waiting for this server fails at
     * once, naming it, instead of at its response timeout.
     */
    private void noticeAgents() {
        staging.fill((byte) 0);
        for (int agent = 0; agent < queuePairs.length; agent++) {
            if (gone[agent] || agentKeys[agent] == null) {
                continue;
            }
            request.clear()
                    .requestId(KIND_SEND | agent)
                    .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                    .inline(staging.asSlice(0, 8))
                    .remote(agentKeys[agent], MailboxLayout.AGENT_NOTICE_OFFSET)
                    .immediate(server | MessageDescriptor.FAILED_IMMEDIATE_FLAG);
            try {
                queuePairs[agent].postSend(request);
            } catch (RuntimeException e) {
                // the agent is gone or its queue is full: it finds out at its response timeout
            }
        }
    }

    /** Makes the polling thread throw {@code failure} at its next idle duty cycle: for tests of the failure path. */
    void injectFailure(RuntimeException failure) {
        injectedFailure = failure;
    }

    /** One duty cycle: polls completions and handles them; when idle, checks timeouts and probes silent holders. */
    int doWork(long nowNs) {
        int polled = completionQueue.poll(completions);
        for (int i = 0; i < polled; i++) {
            onCompletion(completions[i], nowNs);
        }
        int work = polled;
        if (abandonPending) {
            work += abandonGoneAgents(nowNs);
        }
        if (table.hasWaiters() && (polled == 0 || nowNs - lastExpireNs > EXPIRE_INTERVAL_NS)) {
            lastExpireNs = nowNs;
            work += table.expire(nowNs);
        }
        if (polled == 0 && nowNs - lastProbeNs > probeIntervalNs / 4) {
            lastProbeNs = nowNs;
            work += probeSilentHolders(nowNs);
        }
        return work;
    }

    private void onCompletion(WorkCompletion completion, long nowNs) {
        int agent = (int) completion.requestId();
        long kind = completion.requestId() & 0xFFFF_FFFF_0000_0000L;
        if (completion.status() != CompletionStatus.SUCCESS) {
            if (running) {
                onAgentGone(agent, nowNs);
            }
            return;
        }
        if (kind == KIND_PROBE) {
            probing[agent] = false;
            lastHeardNs[agent] = nowNs;
            return;
        }
        if (completion.opcode() != Opcode.RECEIVE_WRITE_WITH_IMMEDIATE) {
            return;
        }
        int writer = completion.immediate();
        postReceive(agent);
        if (writer != agent || gone[agent]) {
            return;
        }
        lastHeardNs[agent] = nowNs;
        if (maxDelayNs > 0) {
            delay();
        }
        onMessage(agent, System.nanoTime());
    }

    private void onMessage(int agent, long startNs) {
        MemorySegment slots = mailbox.segment();
        long slot = MailboxLayout.serverSlotOffset(agent);
        int tag = MessageDescriptor.tag(slots, slot);
        long transaction = MessageDescriptor.transactionId(slots, slot);
        switch (tag) {
            case MessageDescriptor.LOCK_REQUEST -> {
                LOCK_REQUESTS.setOpaque(this, lockRequests + 1);
                long lockId = MessageDescriptor.lockId(slots, slot);
                LockMode mode = LockMode.ofCode(MessageDescriptor.mode(slots, slot));
                int outcome =
                        table.request(agent, transaction, MessageDescriptor.aux(slots, slot), lockId, mode, startNs);
                if (outcome != LockTable.QUEUED) {
                    long spent = System.nanoTime() - startNs;
                    PROCESSING_NS.setOpaque(this, processingNs + spent);
                    respond(
                            agent,
                            outcome == LockTable.GRANTED ? MessageDescriptor.GRANTED : MessageDescriptor.DENIED,
                            mode.ordinal(),
                            lockId,
                            transaction,
                            MessageDescriptor.timings(0, spent));
                }
            }
            case MessageDescriptor.VOTE_REQUEST -> vote(agent, transaction);
            case MessageDescriptor.END_OF_TRANSACTION -> {
                table.release(agent, transaction, startNs);
                respond(agent, MessageDescriptor.ACKNOWLEDGED, 0, 0, transaction, 0);
            }
            case MessageDescriptor.PING -> respond(agent, MessageDescriptor.PONG, 0, 0, transaction, 0);
            default ->
                throw new IllegalStateException("server " + server + ": unknown tag " + tag + " from agent " + agent);
        }
    }

    /** Votes with one FETCH_ADD on the agent's vote word: yes when this server holds the transaction's locks. */
    private void vote(int agent, long transaction) {
        boolean yes = table.holds(agent, transaction)
                && (options.voteNoProbability() == 0 || faults.nextDouble() >= options.voteNoProbability());
        request.clear()
                .requestId(KIND_SEND | agent)
                .opcode(Opcode.FETCH_ADD)
                .local(mailbox, MailboxLayout.serverAtomicOffset(topology.agents(), agent), 8)
                .remote(agentKeys[agent], MailboxLayout.AGENT_VOTE_OFFSET)
                .add(VoteWord.operand(yes));
        post(agent);
    }

    @Override
    public void onGranted(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
        // A queued grant is a side effect of another agent's request (a release, an expiry): no processing of its own.
        respond(
                agent,
                MessageDescriptor.GRANTED,
                mode.ordinal(),
                lockId,
                transactionId,
                MessageDescriptor.timings(queuedNs, 0));
    }

    @Override
    public void onDenied(int agent, long transactionId, long lockId, LockMode mode, long queuedNs) {
        respond(
                agent,
                MessageDescriptor.DENIED,
                mode.ordinal(),
                lockId,
                transactionId,
                MessageDescriptor.timings(queuedNs, 0));
    }

    private void respond(int agent, int tag, int mode, long lockId, long transaction, long aux) {
        if (gone[agent]) {
            return;
        }
        MessageDescriptor.write(staging, tag, mode, lockId, transaction, aux);
        request.clear()
                .requestId(KIND_SEND | agent)
                .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                .inline(staging)
                .remote(agentKeys[agent], MailboxLayout.AGENT_MAILBOX_OFFSET)
                .immediate(server);
        post(agent);
    }

    private void post(int agent) {
        try {
            queuePairs[agent].postSend(request);
        } catch (FaroException e) {
            onAgentGone(agent, System.nanoTime());
        }
    }

    private void postReceive(int agent) {
        try {
            queuePairs[agent].postReceive(KIND_RECEIVE | agent, mailbox, 0, 0);
        } catch (FaroException e) {
            if (running) {
                onAgentGone(agent, System.nanoTime());
            }
        }
    }

    /** Reads one word of each silent lock holder's mailbox; a failed READ ends the holder (see onAgentGone). */
    private int probeSilentHolders(long nowNs) {
        int probes = 0;
        for (int agent = 0; agent < queuePairs.length; agent++) {
            if (gone[agent] || probing[agent] || table.heldCount(agent) == 0) {
                continue;
            }
            if (nowNs - lastHeardNs[agent] > probeIntervalNs) {
                probing[agent] = true;
                request.clear()
                        .requestId(KIND_PROBE | agent)
                        .opcode(Opcode.READ)
                        .local(mailbox, MailboxLayout.serverProbeOffset(topology.agents(), agent), 8)
                        .remote(agentKeys[agent], MailboxLayout.AGENT_MAILBOX_OFFSET);
                post(agent);
                probes++;
            }
        }
        return probes;
    }

    /**
     * The agent's process or queue pair failed: it gets no more answers, and its locks are released at the end of this
     * duty cycle (not here: this may run inside the lock table's callbacks).
     */
    private void onAgentGone(int agent, long nowNs) {
        if (!gone[agent]) {
            gone[agent] = true;
            abandonPending = true;
        }
    }

    /** Releases the locks of the agents found gone (the waiters behind them get their grants). */
    private int abandonGoneAgents(long nowNs) {
        abandonPending = false;
        int released = 0;
        for (int agent = 0; agent < gone.length; agent++) {
            if (gone[agent] && !abandoned[agent]) {
                abandoned[agent] = true;
                ABANDONED_AGENTS.setOpaque(this, abandonedAgents + 1);
                released += table.abandon(agent, nowNs);
            }
        }
        return released;
    }

    private static VarHandle counter(String name) {
        try {
            return MethodHandles.lookup().findVarHandle(LockServer.class, name, long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private void delay() {
        long until = System.nanoTime() + faults.nextLong(maxDelayNs + 1);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /** Lock requests handled so far (approximate while running). */
    public long lockRequests() {
        return (long) LOCK_REQUESTS.getOpaque(this);
    }

    /** Summed processing time of the requests answered at once, in ns (approximate while running). */
    public long processingNs() {
        return (long) PROCESSING_NS.getOpaque(this);
    }

    /** Agents this server declared gone (their locks released). */
    public long abandonedAgents() {
        return (long) ABANDONED_AGENTS.getOpaque(this);
    }

    /** The lock table; only for checks after {@link #close} or from the server's own thread. */
    public LockTable table() {
        return table;
    }

    /** The first failure of the polling thread, or null. */
    public Throwable failure() {
        return failure.get();
    }

    /** Stops the polling thread (waits for it) and closes the queue pairs, queue and regions. Idempotent. */
    @Override
    public void close() {
        stop();
        for (RcQueuePair queuePair : queuePairs) {
            queuePair.close();
        }
        completionQueue.close();
        mailbox.close();
        data.close();
    }

    /** Stops the polling thread (waits for it) without closing anything, so the table may be inspected. Idempotent. */
    public void stop() {
        running = false;
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
