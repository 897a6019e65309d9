package dev.faro.fabric.ucx;

import dev.faro.fabric.Access;
import dev.faro.fabric.CompletionStatus;
import dev.faro.fabric.FaroException;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpRemoteKey;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * The progress thread of a {@code ucx} node: the only thread that calls UCX (JUCX workers are single-threaded). It
 * drives {@code ucp_worker_progress}, runs commands from other threads (registration, connect, revocation), issues
 * posted requests, publishes completions, and handles every active message from peers ({@link MessageDescriptor}).
 *
 * <h2>A turn of the loop</h2>
 * <ol>
 *   <li>progress the worker (incoming messages), then poll the UCX requests in progress ({@link UcpRequests}:
 *       messages, gets, flushes, rendezvous fetches);</li>
 *   <li>run queued commands;</li>
 *   <li>issue posted requests of every queue pair, then close the flush epoch of every peer with new puts;</li>
 *   <li>publish completions in posting order; retry held messages (receiver not ready);</li>
 *   <li>every millisecond: heartbeats, silent peers, pending connects and revocations past their deadlines;</li>
 *   <li>idle: spin, then sleep on UCX's event file descriptor ({@link UcxWakeup}) for up to 1 ms: an incoming
 *       message, a post or a command wakes it at once; or spin only ({@code ucx.idle=spin}). No yielding between:
 *       see {@link #SPINS_BEFORE_SLEEP}.</li>
 * </ol>
 *
 * <h2>Atomics</h2>
 * JUCX (up to 1.18) does not expose {@code ucp_atomic_op_nbx}, so FETCH_ADD and COMPARE_SWAP travel as an ATOMIC
 * message and this thread, at the target, checks key, rights, bounds and alignment and applies them to the region
 * with {@link VarHandle} atomics: never an application thread. They are atomic with respect to each other (one
 * thread applies them all, with CPU atomics), not with respect to a NIC's own atomics.
 */
final class UcxAgent implements Runnable {

    private static final System.Logger LOG = System.getLogger(UcxAgent.class.getName());
    static final int UCS_OK = UcsConstants.STATUS.UCS_OK;
    static final int UCS_INPROGRESS = UcsConstants.STATUS.UCS_INPROGRESS;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final long HOUSEKEEPING_INTERVAL_NS = 1_000_000;
    /** The longest sleep of an idle progress thread: one housekeeping interval. */
    private static final int SLEEP_MILLIS = 1;
    /**
     * Fruitless turns spun before the progress thread sleeps. No {@code Thread.yield} phase between: on a loaded host
     * a yield gives the processor away for a whole time slice (measured: 1.0 to 1.4 ms per yield at load 10 on 2
     * cores), during which nothing wakes it, while a sleep on the event file descriptor ends when a message or a post
     * arrives, and a woken sleeper is scheduled sooner than a yielder.
     */
    private static final int SPINS_BEFORE_SLEEP = 100;

    private final UcxFabric fabric;
    private final UcpWorker worker;
    private final String errorMode;
    private final boolean sharedMemory;
    private final boolean busySpin;
    private final long peerTimeoutNs;
    private final Thread thread;
    /**
     * Sends, gets, flushes and fetches: through FFM and polled each turn (JUCX leaks), or through JUCX toward peers
     * with failure handling ({@link UcpRequests} says why).
     */
    private final UcpRequests requests;

    private final ConcurrentLinkedQueue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;
    /** Set by the progress thread around its sleep; read by {@link #doorbell}. */
    private volatile boolean parked;
    /** UCX's event file descriptor and signal; null if the worker has none (then the thread parks 50 us at a time). */
    private final UcxWakeup wakeup;
    /** Set by the progress thread when arming or waiting on the event file descriptor failed: it parks from then on. */
    private volatile boolean wakeupFailed;

    // Progress thread only.
    private UcxPeer[] peers = new UcxPeer[0];
    private final List<UcpRemoteKey> remoteKeys = new ArrayList<>();
    private final ArrayDeque<ControlBuffer> freeControlBuffers = new ArrayDeque<>();
    private final List<PendingConnect> pendingConnects = new ArrayList<>();
    private final List<Revocation> revocations = new ArrayList<>();
    private final BitSet closedRegions = new BitSet();
    private long nextHousekeepingNs;
    private int idleCount;
    private long nextRevocationToken = 1;
    /** Control messages sent and not yet completed by UCX. */
    private int controlInFlight;

    UcxAgent(UcxFabric fabric, UcpWorker worker, UcxOptions options) {
        this.fabric = fabric;
        this.worker = worker;
        this.errorMode = options.errorMode();
        this.sharedMemory = options.sharedMemory();
        this.busySpin = options.busySpin();
        this.peerTimeoutNs = fabric.config().peerTimeout().toNanos();
        this.requests = new UcpRequests(worker);
        worker.setAmRecvHandler(
                MessageDescriptor.AM_ID,
                this::onMessage,
                UcpConstants.UCP_AM_FLAG_WHOLE_MSG | UcpConstants.UCP_AM_FLAG_PERSISTENT_DATA);
        this.thread = Thread.ofPlatform()
                .daemon()
                .name("faro-ucx-" + fabric.nodeName())
                .unstarted(this);
        UcxWakeup events;
        try {
            events = new UcxWakeup(worker);
        } catch (FaroException | IllegalArgumentException | NoSuchElementException e) {
            LOG.log(
                    Level.DEBUG,
                    "fabric node {0}: no UCX wakeup ({1}); the progress thread parks when idle",
                    fabric.nodeName(),
                    e.getMessage());
            events = null;
        }
        this.wakeup = events;
    }

    void start() {
        thread.start();
    }

    boolean onAgentThread() {
        return Thread.currentThread() == thread;
    }

    /** Runs {@code command} on the progress thread, soon. Any thread. */
    void execute(Runnable command) {
        commands.add(command);
        doorbell();
    }

    /** Runs {@code command} on the progress thread and waits for its result (control path). */
    <T> T call(Callable<T> command) {
        if (onAgentThread()) {
            try {
                return command.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new FaroException(FaroException.Category.IO, e.toString(), e);
            }
        }
        FutureTask<T> task = new FutureTask<>(command);
        execute(task);
        try {
            return task.get(fabric.config().peerTimeout().toMillis() + 10_000, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new FaroException(FaroException.Category.IO, String.valueOf(e.getCause()), e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT,
                    "the progress thread of fabric node " + fabric.nodeName() + " did not answer",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FaroException(FaroException.Category.CLOSED, "interrupted", e);
        }
    }

    /** Wakes the progress thread if it sleeps (or is about to). Data path; any thread. */
    void doorbell() {
        if (parked) {
            if (wakeup == null || wakeupFailed || !wakeup.signal()) {
                LockSupport.unpark(thread);
            }
        }
    }

    /** Stops the loop: says GOODBYE to peers, lets sends drain briefly, releases UCX resources, joins. */
    void stop() {
        running = false;
        doorbell();
        if (!onAgentThread()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The request-creating UCX operations (progress thread only). */
    UcpRequests requests() {
        return requests;
    }

    void rememberRemoteKey(UcpRemoteKey key) {
        remoteKeys.add(key);
    }

    // ============================================================================================ the loop

    @Override
    public void run() {
        try {
            while (running) {
                int work = doWork(System.nanoTime());
                idle(work);
            }
        } catch (Throwable t) {
            fabric.reportAgentFailure(t);
            for (UcxRcQueuePair queuePair : fabric.queuePairArray()) {
                queuePair.fail(CompletionStatus.RETRY_EXCEEDED, CompletionStatus.RETRY_EXCEEDED);
            }
            if (t instanceof Error error) {
                shutdown();
                throw error;
            }
        }
        shutdown();
    }

    int doWork(long nowNs) throws Exception {
        int work = 0;
        for (int i = 0; i < 16; i++) {
            int progressed = worker.progress();
            work += progressed;
            if (progressed == 0) {
                break;
            }
        }
        work += requests.poll();
        Runnable command;
        int commandsRun = 0;
        while (commandsRun < 64 && (command = commands.poll()) != null) {
            command.run();
            commandsRun++;
        }
        work += commandsRun;
        UcxRcQueuePair[] queuePairs = fabric.queuePairArray();
        for (UcxRcQueuePair queuePair : queuePairs) {
            if (queuePair.peer != null) {
                work += queuePair.transmit(nowNs);
            }
        }
        for (UcxPeer peer : peers) {
            work += peer.requestFlush();
        }
        for (UcxRcQueuePair queuePair : queuePairs) {
            if (queuePair.peer != null) {
                work += queuePair.completeReady();
            }
            if (queuePair.receiver.hasHeld()) {
                work += queuePair.receiver.retryHeld(nowNs);
            }
            queuePair.acknowledgePlaced(); // not work: it leaves no more to do
        }
        if (nowNs - nextHousekeepingNs >= 0) {
            nextHousekeepingNs = nowNs + HOUSEKEEPING_INTERVAL_NS;
            work += housekeeping(nowNs);
        }
        return work;
    }

    private void idle(int work) {
        if (work > 0) {
            idleCount = 0;
            return;
        }
        idleCount++;
        if (busySpin || idleCount < SPINS_BEFORE_SLEEP) {
            Thread.onSpinWait();
        } else {
            parked = true; // volatile write, then the reads below: Dekker with a poster's publish-then-doorbell
            if (running && commands.isEmpty() && !hasNewPosts()) {
                sleep();
            }
            parked = false;
        }
    }

    /** Sleeps on UCX's event file descriptor, at most {@link #SLEEP_MILLIS}; parks 50 us where that fails. */
    private void sleep() {
        if (wakeup == null || wakeupFailed) {
            LockSupport.parkNanos(50_000);
            return;
        }
        try {
            if (wakeup.arm()) {
                wakeup.await(SLEEP_MILLIS);
            }
        } catch (FaroException e) {
            wakeupFailed = true;
            LOG.log(
                    Level.WARNING,
                    "fabric node {0}: UCX wakeup failed ({1}); the progress thread parks when idle",
                    fabric.nodeName(),
                    e.getMessage());
        }
    }

    /**
     * Whether a queue pair has requests posted since its last {@link UcxRcQueuePair#transmit}, or a held message and a
     * receive posted for it.
     */
    private boolean hasNewPosts() {
        for (UcxRcQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair.peer != null && queuePair.hasNewPosts()) { // transmit runs for these only
                return true;
            }
            if (queuePair.receiver.deliverable()) {
                return true;
            }
        }
        return false;
    }

    private int housekeeping(long nowNs) {
        int work = 0;
        for (UcxPeer peer : peers) {
            if (peer.failed) {
                continue;
            }
            if (nowNs - peer.lastHeardNs > peerTimeoutNs) {
                failPeer(peer, "silent for more than " + TimeUnit.NANOSECONDS.toMillis(peerTimeoutNs) + " ms");
                work++;
            } else if (nowNs - peer.lastSentNs > peerTimeoutNs / 4) {
                sendControl(peer, MessageDescriptor.HEARTBEAT, 0, 0, 0, 0, 0, 0, null);
                work++;
            }
        }
        for (int i = pendingConnects.size() - 1; i >= 0; i--) {
            PendingConnect pending = pendingConnects.get(i);
            if (nowNs - pending.deadlineNs >= 0) {
                pendingConnects.remove(i);
                replyConnect(pending.peer, pending.sourceQpn, pending.targetQpn, false);
                work++;
            }
        }
        for (int i = revocations.size() - 1; i >= 0; i--) {
            Revocation revocation = revocations.get(i);
            if (nowNs - revocation.deadlineNs >= 0) {
                revocations.remove(i);
                revocation.done.countDown();
            }
        }
        return work;
    }

    // ======================================================================================== peers

    UcxPeer peer(long node) {
        for (UcxPeer peer : peers) {
            if (peer.node == node) {
                return peer;
            }
        }
        return null;
    }

    /**
     * The peer for {@code node}, creating its endpoint from {@code workerAddress} if needed. Failure handling
     * ({@code ucx.error-mode}): {@code auto} asks UCX for peer failure handling but for a peer on this host that
     * shared memory may reach ({@link UcxHost}, {@link UcxOptions#sharedMemory}): no shared-memory transport has it,
     * so asking would make UCX use TCP (puts emulated by messages) between two processes of one host; the heartbeat
     * detects a dead peer there, as with {@code ucx.tls=sm}.
     */
    UcxPeer ensurePeer(long node, long host, byte[] workerAddress) {
        UcxPeer existing = peer(node);
        if (existing != null) {
            return existing;
        }
        UcpEndpoint endpoint = null;
        boolean peerMode =
                errorMode.equals("peer") || (errorMode.equals("auto") && !(sharedMemory && UcxHost.isLocal(host)));
        final UcxPeer[] created = new UcxPeer[1];
        if (peerMode) {
            try {
                endpoint = worker.newEndpoint(
                        endpointParams(workerAddress, created).setPeerErrorHandlingMode());
            } catch (UcxException e) {
                if (errorMode.equals("peer")) {
                    throw new FaroException(
                            FaroException.Category.NOT_SUPPORTED,
                            "no UCX transport with peer"
                                    + " failure handling reaches node " + Long.toHexString(node) + " (" + e.getMessage()
                                    + "); shared memory has none: use ucx.error-mode=auto or none, or ucx.tls with tcp or an"
                                    + " RDMA transport",
                            e);
                }
                peerMode = false;
            }
        }
        if (endpoint == null) {
            try {
                endpoint = worker.newEndpoint(endpointParams(workerAddress, created));
            } catch (UcxException e) {
                throw new FaroException(
                        FaroException.Category.NETWORK,
                        "UCX cannot reach node " + Long.toHexString(node) + ": " + e.getMessage()
                                + " (check ucx.tls on both nodes)",
                        e);
            }
        }
        UcxPeer peer = new UcxPeer(node, workerAddress, endpoint, peerMode, requests, System.nanoTime());
        created[0] = peer;
        UcxPeer[] grown = java.util.Arrays.copyOf(peers, peers.length + 1);
        grown[peers.length] = peer;
        peers = grown;
        return peer;
    }

    private UcpEndpointParams endpointParams(byte[] workerAddress, UcxPeer[] created) {
        return new UcpEndpointParams()
                .setUcpAddress(java.nio.ByteBuffer.allocateDirect(workerAddress.length)
                        .put(workerAddress)
                        .flip())
                .setErrorHandler((endpoint, status, message) -> {
                    if (created[0] != null) {
                        failPeer(created[0], "UCX endpoint error " + status + ": " + message);
                    }
                });
    }

    /** The peer failed (or closed): every queue pair connected to it fails. Progress thread. */
    void failPeer(UcxPeer peer, String why) {
        if (peer.failed) {
            return;
        }
        peer.failed = true;
        peer.failure = why;
        fabric.counters.peerFailures.increment();
        LOG.log(
                why.equals("closed") ? Level.DEBUG : Level.WARNING,
                "fabric node {0}: peer node {1} failed: {2}",
                fabric.nodeName(),
                Long.toHexString(peer.node),
                why);
        for (UcxRcQueuePair queuePair : fabric.queuePairArray()) {
            if (queuePair.peerNode == peer.node && queuePair.state() != QueuePairState.INIT) {
                queuePair.onPeerFailed();
            }
        }
        // a failed or closed peer cannot use a key any more: no answer to wait for
        for (int i = revocations.size() - 1; i >= 0; i--) {
            Revocation revocation = revocations.get(i);
            if (revocation.awaiting.remove(peer) && revocation.awaiting.isEmpty()) {
                revocations.remove(i);
                revocation.done.countDown();
            }
        }
    }

    // ================================================================================= connect and revoke

    /** A local queue pair connected (INIT to READY): bind it to its peer and start the handshake. */
    void onConnected(UcxRcQueuePair queuePair, UcxQueuePairAddress remote) {
        UcxPeer peer;
        try {
            peer = ensurePeer(remote.node(), remote.host, remote.workerAddress);
        } catch (FaroException e) {
            LOG.log(Level.WARNING, e.getMessage());
            queuePair.handshake = -1;
            queuePair.peer = null;
            queuePair.fail(CompletionStatus.REMOTE_OPERATION_ERROR, CompletionStatus.FLUSHED);
            return;
        }
        queuePair.peer = peer;
        byte[] ownAddress = fabric.workerAddress();
        sendControl(
                peer,
                MessageDescriptor.CONNECT,
                remote.queuePairNumber(),
                queuePair.queuePairNumber(),
                0,
                0,
                fabric.config().receiverNotReadyTimeout().toNanos(),
                UcxHost.ID,
                ownAddress);
        // a CONNECT that arrived while this queue pair was in INIT
        for (int i = pendingConnects.size() - 1; i >= 0; i--) {
            PendingConnect pending = pendingConnects.get(i);
            if (pending.targetQpn == queuePair.queuePairNumber()) {
                pendingConnects.remove(i);
                boolean matches = queuePair.isConnectedTo(pending.peer.node, pending.sourceQpn);
                if (matches) {
                    queuePair.peerRnrTimeoutNs = pending.rnrTimeoutNs;
                }
                replyConnect(pending.peer, pending.sourceQpn, pending.targetQpn, matches);
            }
        }
    }

    private void replyConnect(UcxPeer peer, int initiatorQpn, int targetQpn, boolean accepted) {
        byte[] closed = closedRegions.toByteArray();
        sendControl(
                peer,
                MessageDescriptor.CONNECT_REPLY,
                initiatorQpn,
                targetQpn,
                0,
                0,
                0,
                accepted ? 0 : 1,
                closed.length == 0 ? null : closed);
    }

    /** Starts revoking a closed region at every peer; {@code done} counts down when all answered. */
    void revoke(int regionId, java.util.concurrent.CountDownLatch done, long deadlineNs) {
        closedRegions.set(regionId);
        Revocation revocation = new Revocation(nextRevocationToken++, done, deadlineNs);
        List<UcxPeer> others = new ArrayList<>();
        for (UcxPeer peer : peers) {
            if (peer.node == fabric.node()) {
                peer.revoked.set(regionId); // this node's own queue pairs: nothing in flight to wait for
            } else if (!peer.failed) {
                others.add(peer);
            }
        }
        if (others.isEmpty()) {
            done.countDown();
            return;
        }
        revocation.awaiting.addAll(others);
        revocations.add(revocation); // before sending: an answer may come back inside the send
        for (UcxPeer peer : others) {
            sendControl(peer, MessageDescriptor.REVOKE, 0, 0, 0, revocation.token, regionId, 0, null);
        }
    }

    // ===================================================================================== incoming messages

    /** The AM handler: every message from a peer, on this thread inside {@code worker.progress()}. */
    private int onMessage(long headerAddress, long headerLength, UcpAmData data, UcpEndpoint replyEndpoint) {
        MemorySegment header = MemorySegment.ofAddress(headerAddress).reinterpret(headerLength);
        if (!MessageDescriptor.valid(header)) {
            LOG.log(Level.WARNING, "fabric node {0}: dropped a message with a bad header", fabric.nodeName());
            return UCS_OK;
        }
        long nowNs = System.nanoTime();
        long sourceNode = MessageDescriptor.sourceNode(header);
        int type = MessageDescriptor.type(header);
        UcxPeer peer = peer(sourceNode);
        if (type == MessageDescriptor.CONNECT) {
            byte[] address = new byte[(int) data.getLength()];
            MemorySegment.copy(
                    MemorySegment.ofAddress(data.getDataAddress()).reinterpret(data.getLength()),
                    0,
                    MemorySegment.ofArray(address),
                    0,
                    address.length);
            try {
                peer = ensurePeer(sourceNode, MessageDescriptor.b(header), address);
            } catch (FaroException e) {
                LOG.log(
                        Level.WARNING,
                        "fabric node {0}: cannot answer a connect: {1}",
                        fabric.nodeName(),
                        e.getMessage());
                return UCS_OK;
            }
        }
        if (peer == null || peer.failed) {
            return UCS_OK; // a node this one never met (or gave up on) cannot be answered; UCX drops the data
        }
        peer.lastHeardNs = nowNs;
        int targetQpn = MessageDescriptor.targetQpn(header);
        int sourceQpn = MessageDescriptor.sourceQpn(header);
        long psn = MessageDescriptor.psn(header);
        switch (type) {
            case MessageDescriptor.CONNECT -> onConnect(peer, targetQpn, sourceQpn, MessageDescriptor.a(header), nowNs);
            case MessageDescriptor.CONNECT_REPLY -> {
                if (data != null && data.getLength() > 0) {
                    byte[] bits = new byte[(int) data.getLength()];
                    MemorySegment.copy(
                            MemorySegment.ofAddress(data.getDataAddress()).reinterpret(data.getLength()),
                            0,
                            MemorySegment.ofArray(bits),
                            0,
                            bits.length);
                    peer.revoked.or(BitSet.valueOf(bits));
                }
                UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
                if (queuePair != null && queuePair.peer == peer && queuePair.peerQpn == sourceQpn) {
                    queuePair.onConnectReply(MessageDescriptor.b(header) == 0);
                }
            }
            case MessageDescriptor.SEND, MessageDescriptor.WRITE_IMMEDIATE -> {
                boolean send = type == MessageDescriptor.SEND;
                UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
                if (queuePair == null
                        || queuePair.state() != QueuePairState.READY
                        || !queuePair.isConnectedTo(sourceNode, sourceQpn)) {
                    if (queuePair != null) {
                        queuePair.acknowledgePlaced(); // what was placed before goes first
                    }
                    answer(peer, sourceQpn, targetQpn, psn, CompletionStatus.REMOTE_OPERATION_ERROR.ordinal(), 0);
                    return UCS_OK;
                }
                return queuePair.receiver.onMessage(
                        send,
                        psn,
                        MessageDescriptor.a(header),
                        MessageDescriptor.immediate(header),
                        sourceNode,
                        sourceQpn,
                        send ? data : null,
                        nowNs);
            }
            case MessageDescriptor.ATOMIC -> onAtomic(peer, header, targetQpn, sourceQpn, psn);
            case MessageDescriptor.REPLY -> {
                UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
                if (queuePair != null && queuePair.peer == peer) {
                    queuePair.onAnswer(psn, (int) MessageDescriptor.b(header), MessageDescriptor.a(header));
                }
            }
            case MessageDescriptor.ACK -> {
                UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
                if (queuePair != null && queuePair.peer == peer && queuePair.peerQpn == sourceQpn) {
                    queuePair.onAcknowledged(psn);
                }
            }
            case MessageDescriptor.REVOKE -> {
                peer.revoked.set((int) MessageDescriptor.a(header));
                UcxPeer revoker = peer;
                // answer once every put this node issued to the revoker is visible: then the memory may go
                requests.flush(
                        peer,
                        (token, status) -> // answered even if it failed
                        sendControl(revoker, MessageDescriptor.REVOKE_ACK, 0, 0, 0, token, 0, 0, null),
                        psn);
            }
            case MessageDescriptor.REVOKE_ACK -> {
                for (int i = revocations.size() - 1; i >= 0; i--) {
                    Revocation revocation = revocations.get(i);
                    if (revocation.token == psn && revocation.awaiting.remove(peer) && revocation.awaiting.isEmpty()) {
                        revocations.remove(i);
                        revocation.done.countDown();
                    }
                }
            }
            case MessageDescriptor.HEARTBEAT -> {}
            case MessageDescriptor.GOODBYE -> failPeer(peer, "closed");
            default -> LOG.log(Level.WARNING, "fabric node {0}: unknown message type {1}", fabric.nodeName(), type);
        }
        return UCS_OK;
    }

    private void onConnect(UcxPeer peer, int targetQpn, int sourceQpn, long rnrTimeoutNs, long nowNs) {
        UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
        if (queuePair == null || queuePair.state() == QueuePairState.CLOSED) {
            replyConnect(peer, sourceQpn, targetQpn, false);
        } else if (queuePair.state() == QueuePairState.INIT) {
            // it may connect back any moment (both sides connect one after the other); wait up to the peer timeout
            pendingConnects.add(new PendingConnect(peer, sourceQpn, targetQpn, rnrTimeoutNs, nowNs + peerTimeoutNs));
        } else if (queuePair.isConnectedTo(peer.node, sourceQpn)) {
            queuePair.peerRnrTimeoutNs = rnrTimeoutNs;
            replyConnect(peer, sourceQpn, targetQpn, true);
        } else {
            replyConnect(peer, sourceQpn, targetQpn, false);
        }
    }

    /** Applies an atomic for a peer after checking the key like a NIC would; answers with the old value. */
    private void onAtomic(UcxPeer peer, MemorySegment header, int targetQpn, int sourceQpn, long psn) {
        UcxRcQueuePair queuePair = fabric.queuePair(targetQpn);
        if (queuePair == null
                || queuePair.state() != QueuePairState.READY
                || !queuePair.isConnectedTo(peer.node, sourceQpn)) {
            answer(peer, sourceQpn, targetQpn, psn, CompletionStatus.REMOTE_OPERATION_ERROR.ordinal(), 0);
            return;
        }
        long offset = MessageDescriptor.a(header);
        long regionAndKey = MessageDescriptor.d(header);
        UcxMemoryRegion region = fabric.region((int) (regionAndKey >>> 32));
        if (region == null
                || !region.isRegistered()
                || !region.admits((int) regionAndKey, Access.REMOTE_ATOMIC, offset, 8)) {
            answer(peer, sourceQpn, targetQpn, psn, CompletionStatus.REMOTE_ACCESS_ERROR.ordinal(), 0);
            return;
        }
        if ((offset & 7) != 0) {
            answer(peer, sourceQpn, targetQpn, psn, CompletionStatus.REMOTE_INVALID_REQUEST.ordinal(), 0);
            return;
        }
        long old;
        if (MessageDescriptor.immediate(header) == Opcode.FETCH_ADD.ordinal()) {
            old = (long) WORD.getAndAdd(region.segment(), offset, MessageDescriptor.b(header));
        } else {
            old = (long) WORD.compareAndExchange(
                    region.segment(), offset, MessageDescriptor.b(header), MessageDescriptor.c(header));
        }
        answer(peer, sourceQpn, targetQpn, psn, CompletionStatus.SUCCESS.ordinal(), old);
    }

    // ================================================================================================ sending

    /** Answers request {@code psn} of the initiator's queue pair {@code initiatorQpn}. */
    void answer(UcxRcQueuePair from, long initiatorNode, int initiatorQpn, long psn, int status, long value) {
        UcxPeer peer = peer(initiatorNode);
        if (peer != null) {
            from.acknowledgePlaced();
            answer(peer, initiatorQpn, from.queuePairNumber(), psn, status, value);
        }
    }

    /** Acknowledges every SEND and notification of {@code from}'s peer queue pair up to {@code psn} (cumulative). */
    void acknowledge(UcxRcQueuePair from, long psn) {
        UcxPeer peer = peer(from.peerNode);
        if (peer != null) {
            sendControl(peer, MessageDescriptor.ACK, from.peerQpn, from.queuePairNumber(), 0, psn, 0, 0, null);
        }
    }

    private void answer(UcxPeer peer, int initiatorQpn, int targetQpn, long psn, int status, long value) {
        sendControl(peer, MessageDescriptor.REPLY, initiatorQpn, targetQpn, 0, psn, value, status, null);
    }

    /** Sends a control message (header, optional data) from a pooled buffer, released when the send completes. */
    private void sendControl(
            UcxPeer peer,
            int type,
            int targetQpn,
            int sourceQpn,
            int immediate,
            long psn,
            long a,
            long b,
            byte[] data) {
        if (peer.failed) {
            return;
        }
        ControlBuffer buffer = freeControlBuffers.pollFirst();
        if (buffer == null) {
            buffer = new ControlBuffer();
        }
        MessageDescriptor.write(buffer.header, type, targetQpn, fabric.node(), sourceQpn, immediate, psn, a, b, 0, 0);
        long dataAddress = 0;
        long dataLength = 0;
        if (data != null && data.length > 0) {
            buffer.data = Arena.ofShared();
            MemorySegment segment = buffer.data.allocate(data.length);
            MemorySegment.copy(MemorySegment.ofArray(data), 0, segment, 0, data.length);
            dataAddress = segment.address();
            dataLength = data.length;
        }
        peer.lastSentNs = System.nanoTime();
        controlInFlight++;
        requests.sendActiveMessage(
                peer,
                MessageDescriptor.AM_ID,
                buffer.header.address(),
                MessageDescriptor.LENGTH,
                dataAddress,
                dataLength,
                0,
                buffer,
                0);
    }

    /** Gives data UCX kept for a held message back (or declines a rendezvous one). */
    void releaseData(UcpAmData data) {
        if (data == null) {
            return;
        }
        if (data.isDataValid()) {
            worker.amDataRelease(data.getDataAddress());
        } else if (data.getLength() > 0) {
            worker.amDataRelease(data.getDataHandle());
        }
    }

    // ============================================================================================== shutdown

    private void shutdown() {
        // commands queued before the stop (unmapping closed regions above all) must run: a registration left behind
        // makes ucp_cleanup abort the process
        Runnable command;
        while ((command = commands.poll()) != null) {
            try {
                command.run();
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "a command while closing", e);
            }
        }
        // what was placed in the last turn is acknowledged before the GOODBYE, which fails whatever the peer still
        // waits for
        for (UcxRcQueuePair queuePair : fabric.queuePairArray()) {
            queuePair.acknowledgePlaced();
        }
        for (UcxPeer peer : peers) {
            if (!peer.failed) {
                sendControl(peer, MessageDescriptor.GOODBYE, 0, 0, 0, 0, 0, 0, null);
            }
        }
        long untilNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        try {
            while (controlInFlight > 0 && System.nanoTime() - untilNs < 0) { // the GOODBYEs leave, or 100 ms pass
                if (worker.progress() + requests.poll() == 0) {
                    Thread.onSpinWait();
                }
            }
        } catch (Exception e) {
            LOG.log(Level.DEBUG, "progress while closing", e);
        }
        requests.releaseAll(); // before the endpoints close: UCX completes (and frees) what they still carry
        for (UcpRemoteKey key : remoteKeys) {
            key.close();
        }
        remoteKeys.clear();
        for (UcxPeer peer : peers) {
            try {
                UcpRequest close = peer.endpoint.closeNonBlockingForce();
                long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
                while (close != null && !close.isCompleted() && System.nanoTime() - deadlineNs < 0) {
                    worker.progress();
                }
            } catch (Exception e) {
                LOG.log(Level.DEBUG, "closing an endpoint", e);
            }
        }
        peers = new UcxPeer[0];
        fabric.releaseUcx();
    }

    /** A pooled header buffer for control messages, and the callback that returns it to the pool. */
    private final class ControlBuffer extends UcpRequests.OneAtATime {
        final MemorySegment header = Arena.ofAuto().allocate(MessageDescriptor.LENGTH, 8);
        Arena data;

        @Override
        public void completed(long tag, int status) {
            controlInFlight--;
            if (data != null) {
                data.close();
                data = null;
            }
            freeControlBuffers.addFirst(this);
        }
    }

    private record PendingConnect(UcxPeer peer, int sourceQpn, int targetQpn, long rnrTimeoutNs, long deadlineNs) {}

    private static final class Revocation {
        final long token;
        final java.util.concurrent.CountDownLatch done;
        final long deadlineNs;
        final List<UcxPeer> awaiting = new ArrayList<>();

        Revocation(long token, java.util.concurrent.CountDownLatch done, long deadlineNs) {
            this.token = token;
            this.done = done;
            this.deadlineNs = deadlineNs;
        }
    }
}
