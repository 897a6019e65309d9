package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.PeerProcess.hex;
import static dev.faro.fabric.PeerProcess.unhex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.UdEnd;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fabric contract across real OS processes: the test JVM is one node, {@link FabricPeerMain} child JVMs (same
 * java, same class path) are the others, driven over stdin/stdout. A provider's integration test extends this and
 * implements {@link #config(String)}; children get the same configuration (provider, timeouts, options) on their
 * command line.
 *
 * <p>Providers with shared files also implement {@link #sharedResources()}, so the suite can check that nothing is
 * left behind after a SIGKILL and that a new node sweeps what a killed process left.
 */
public abstract class CrossProcessConformanceSuite extends FabricTestHarness {

    /** The promise: a killed peer turns into an error completion within this (printed, not asserted). */
    private static final Duration PROMISED_FAILURE_DETECTION = Duration.ofSeconds(5);

    private final List<PeerProcess> children = new ArrayList<>();

    /**
     * The provider's shared resources as a sorted list of names (e.g. the files below {@code shm.directory}), or null
     * when the provider has none; the kill and stale-resource cases use it.
     */
    protected List<String> sharedResources() {
        return null;
    }

    /**
     * Whether one-sided operations need a thread of the target's process: false where the initiator or the NIC moves
     * the bytes ({@code shm}, RDMA), true where the provider's "NIC" is a thread of the target process ({@code net}'s
     * progress thread). A stopped target process then serves nothing until it continues, and
     * {@link #oneSidedOperationsCompleteWhileTheTargetProcessIsStopped} checks instead that requests posted to it
     * neither fail nor get lost while it is stopped, and complete in order once it continues.
     */
    protected boolean oneSidedOperationsNeedTheTargetProcess() {
        return false;
    }

    /**
     * Why {@link #oneSidedOperationsCompleteWhileTheTargetProcessIsStopped} cannot hold for this provider
     * configuration, or null (the default) when it must. For a provider where some one-sided operations move without
     * the target process and others need it, so neither answer of {@link #oneSidedOperationsNeedTheTargetProcess()}
     * is true; the case is then reported as skipped with this reason.
     */
    protected String whyOneSidedOperationsOnAStoppedProcessCannotHold() {
        return null;
    }

    /** Starts a child node with {@code config}; it is closed (or killed) after the test. */
    protected final PeerProcess startChild(FabricConfig config) throws IOException {
        PeerProcess child = launchChild(config);
        children.add(child);
        return child;
    }

    /**
     * Starts the child JVM of {@link #startChild}: by default on this host, with {@code config} as it is. A provider
     * test that puts children elsewhere (another network namespace, with its own bind address) overrides this, e.g.
     * with {@link PeerProcess#start(FabricConfig, List)}.
     */
    protected PeerProcess launchChild(FabricConfig config) throws IOException {
        return PeerProcess.start(config);
    }

    @AfterEach
    final void closeChildren() {
        List<String> problems = new ArrayList<>();
        for (PeerProcess child : children) {
            String problem = child.closeAndDescribeProblems();
            if (problem != null) {
                problems.add(problem);
            }
        }
        children.clear();
        assertThat(problems).as("children closed cleanly").isEmpty();
    }

    /** Connects a parent RC end and a child RC queue pair ({@code RC <id> <address>} reply) to each other. */
    private static void connectToChild(RcEnd end, PeerProcess child, String[] childQueuePair) {
        end.queuePair().connect(end.fabric().importAddress(unhex(childQueuePair[2])));
        child.call(
                "CONNECT " + childQueuePair[1] + " "
                        + hex(end.queuePair().address().toBytes()),
                "OK");
    }

    private static int bits(Set<Access> rights) {
        return Access.toBits(rights);
    }

    // ====================================================================================== one-sided operations

    @Test
    void oneSidedOperationsOnAChildsRegionAreSeenByTheChild() throws IOException {
        Fabric parent = open("parent");
        PeerProcess child = startChild(config("child"));
        int regionBytes = 1024 * KIB;
        String[] region = child.call("REGION " + regionBytes + " " + bits(ALL_RIGHTS), "REGION");
        String[] childQueuePair = child.call("RC 1 1", "RC");
        RcEnd end = rcEnd(parent, 8, 1);
        connectToChild(end, child, childQueuePair);
        RemoteKey key = parent.importRemoteKey(unhex(region[2]));
        assertThat(key.lengthBytes()).isEqualTo(regionBytes);
        MemoryRegion local = parent.register(512 * KIB, ALL_RIGHTS);
        WorkRequest request = new WorkRequest();

        // WRITE: sizes from one byte to 256 KiB at odd offsets; the child checksums its memory
        long[][] writes = {{1, 3}, {100, 4097}, {4096, 65536}, {64 * KIB, 131_072 + 8}, {256 * KIB, 512 * KIB}};
        for (int i = 0; i < writes.length; i++) {
            int length = (int) writes[i][0];
            long remoteOffset = writes[i][1];
            TestPayloads.fill(local.segment(), 0, length, 1000 + i);
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(i)
                            .opcode(Opcode.WRITE)
                            .local(local, 0, length)
                            .remote(key, remoteOffset));
            assertSuccess(awaitCompletion(end.completionQueue(), "WRITE " + i + " into the child"), i, Opcode.WRITE);
            String[] checksum = child.call("CHECKSUM " + region[1] + " " + remoteOffset + " " + length, "CHECKSUM");
            assertThat(Long.parseLong(checksum[1]))
                    .as("child's checksum of WRITE %d (%d bytes)", i, length)
                    .isEqualTo(TestPayloads.crc32c(local.segment(), 0, length));
        }

        // READ: the child fills, the parent reads
        child.call("FILL " + region[1] + " 768000 200000 77", "OK");
        end.queuePair()
                .postSend(request.clear()
                        .requestId(10)
                        .opcode(Opcode.READ)
                        .local(local, 5, 200_000)
                        .remote(key, 768_000));
        Completion read = awaitCompletion(end.completionQueue(), "READ from the child");
        assertSuccess(read, 10, Opcode.READ);
        assertThat(read.byteLength()).isEqualTo(200_000);
        assertThat(TestPayloads.mismatch(local.segment(), 5, 200_000, 77))
                .as("bytes read")
                .isEqualTo(-1);

        // atomics on the child's last word
        long word = regionBytes - 8;
        child.call("FILL " + region[1] + " " + word + " 8 0", "OK");
        long initial = Long.parseLong(child.call("WORD " + region[1] + " " + word, "WORD")[1]);
        for (int i = 0; i < 100; i++) {
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(100 + i)
                            .opcode(Opcode.FETCH_ADD)
                            .local(local, 0, 8)
                            .remote(key, word)
                            .add(3));
            assertSuccess(awaitCompletion(end.completionQueue(), "FETCH_ADD " + i), 100 + i, Opcode.FETCH_ADD);
            assertThat(local.segment().get(ValueLayout.JAVA_LONG, 0))
                    .as("old value of FETCH_ADD %d", i)
                    .isEqualTo(initial + 3L * i);
        }
        assertThat(Long.parseLong(child.call("WORD " + region[1] + " " + word, "WORD")[1]))
                .isEqualTo(initial + 300);
        end.queuePair()
                .postSend(request.clear()
                        .requestId(300)
                        .opcode(Opcode.COMPARE_SWAP)
                        .local(local, 8, 8)
                        .remote(key, word)
                        .compareSwap(initial + 300, 7));
        assertSuccess(awaitCompletion(end.completionQueue(), "COMPARE_SWAP"), 300, Opcode.COMPARE_SWAP);
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 8)).isEqualTo(initial + 300);
        assertThat(Long.parseLong(child.call("WORD " + region[1] + " " + word, "WORD")[1]))
                .isEqualTo(7);

        // a WRITE into a child region without REMOTE_WRITE fails and changes nothing there
        String[] readOnly = child.call("REGION 4096 " + bits(EnumSet.of(Access.REMOTE_READ)), "REGION");
        long before = Long.parseLong(child.call("CHECKSUM " + readOnly[1] + " 0 4096", "CHECKSUM")[1]);
        end.queuePair()
                .postSend(request.clear()
                        .requestId(400)
                        .opcode(Opcode.WRITE)
                        .local(local, 0, 4096)
                        .remote(parent.importRemoteKey(unhex(readOnly[2])), 0));
        Completion refused = awaitCompletion(end.completionQueue(), "WRITE without the right");
        assertThat(refused.status()).as("%s", refused).isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(Long.parseLong(child.call("CHECKSUM " + readOnly[1] + " 0 4096", "CHECKSUM")[1]))
                .as("child's read-only region unchanged")
                .isEqualTo(before);
    }

    @Test
    void oneSidedOperationsCompleteWhileTheTargetProcessIsStopped() throws Exception {
        assumeTrue(
                Files.isExecutable(Path.of("/usr/bin/kill")) || Files.isExecutable(Path.of("/bin/kill")),
                "a kill command to send SIGSTOP");
        String cannotHold = whyOneSidedOperationsOnAStoppedProcessCannotHold();
        assumeTrue(cannotHold == null, cannotHold);
        Duration patient = Duration.ofSeconds(60); // a stopped process is alive; nobody should time out on it
        Fabric parent = open(config("parent").withPeerTimeout(patient));
        PeerProcess child = startChild(config("child").withPeerTimeout(patient));
        String[] region = child.call("REGION " + 64 * KIB + " " + bits(ALL_RIGHTS), "REGION");
        child.call("FILL " + region[1] + " 32768 32768 5", "OK");
        String[] childQueuePair = child.call("RC 1 1", "RC");
        RcEnd end = rcEnd(parent, 8, 1);
        connectToChild(end, child, childQueuePair);
        RemoteKey key = parent.importRemoteKey(unhex(region[2]));
        MemoryRegion local = parent.register(64 * KIB, ALL_RIGHTS);
        TestPayloads.fill(local.segment(), 0, 16 * KIB, 6);
        WorkRequest request = new WorkRequest();

        boolean targetThreadServes = oneSidedOperationsNeedTheTargetProcess();
        child.signal("STOP"); // no thread of the child can run from here on
        List<Completion> completions = null;
        try {
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(1)
                            .opcode(Opcode.WRITE)
                            .local(local, 0, 16 * KIB)
                            .remote(key, 0));
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(2)
                            .opcode(Opcode.READ)
                            .local(local, 32 * KIB, 32 * KIB)
                            .remote(key, 32 * KIB));
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(3)
                            .opcode(Opcode.FETCH_ADD)
                            .local(local, 16 * KIB, 8)
                            .remote(key, 16 * KIB)
                            .add(41));
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(4)
                            .opcode(Opcode.COMPARE_SWAP)
                            .local(local, 16 * KIB + 8, 8)
                            .remote(key, 16 * KIB)
                            .compareSwap(41, 42));
            if (targetThreadServes) {
                // the child's progress thread is stopped with it: nothing can complete, and nothing may fail
                assertThat(end.completionQueue().await(WorkCompletion.array(4), 200, TimeUnit.MILLISECONDS))
                        .as("completions while the target process is stopped")
                        .isZero();
            } else {
                completions = awaitCompletions(end.completionQueue(), 4, "one-sided operations on a stopped process");
            }
        } finally {
            child.signal("CONT");
        }
        if (targetThreadServes) {
            completions = awaitCompletions(
                    end.completionQueue(),
                    4,
                    "one-sided operations posted to a stopped" + " process, once it continued");
        }
        assertThat(completions).extracting(Completion::requestId).containsExactly(1L, 2L, 3L, 4L);
        assertThat(completions).as("%s", completions).allMatch(Completion::isSuccess);
        assertThat(TestPayloads.mismatch(local.segment(), 32 * KIB, 32 * KIB, 5))
                .as("READ")
                .isEqualTo(-1);
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 16 * KIB))
                .as("FETCH_ADD old value")
                .isZero();
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 16 * KIB + 8))
                .as("COMPARE_SWAP old value")
                .isEqualTo(41);
        assertThat(Long.parseLong(child.call("CHECKSUM " + region[1] + " 0 " + 16 * KIB, "CHECKSUM")[1]))
                .as("the child sees the WRITE after it resumes")
                .isEqualTo(TestPayloads.crc32c(local.segment(), 0, 16 * KIB));
        assertThat(Long.parseLong(child.call("WORD " + region[1] + " " + 16 * KIB, "WORD")[1]))
                .isEqualTo(42);
    }

    // =================================================================================================== streams

    @Test
    void rcSendStreamFromParentToChildArrivesInOrderAndIntact() throws IOException {
        int messages = 2000;
        Duration retryWindow = Duration.ofSeconds(30);
        Fabric parent = open(config("parent").withReceiverNotReadyTimeout(retryWindow));
        PeerProcess child = startChild(config("child").withReceiverNotReadyTimeout(retryWindow));
        String[] childQueuePair = child.call("RC 1 32", "RC");
        RcEnd end = rcEnd(parent, 16, 1);
        connectToChild(end, child, childQueuePair);

        child.call("RECV_STREAM " + childQueuePair[1] + " " + messages + " " + 64 * KIB, "POSTED");
        long checksumSum = sendStream(end, messages, 64, 64 * KIB, null);
        String[] received = child.expect("RECEIVED");
        assertThat(Long.parseLong(received[1])).isEqualTo(messages);
        assertThat(Long.parseLong(received[2]))
                .as("sum of checksums (seed=%d)", SEED)
                .isEqualTo(checksumSum);
    }

    @Test
    void rcSendStreamFromChildToParentArrivesInOrderAndIntact() throws IOException {
        int messages = 2000;
        int slotBytes = 64 * KIB;
        Duration retryWindow = Duration.ofSeconds(30);
        Fabric parent = open(config("parent").withReceiverNotReadyTimeout(retryWindow));
        PeerProcess child = startChild(config("child").withReceiverNotReadyTimeout(retryWindow));
        String[] childQueuePair = child.call("RC 16 1", "RC");
        RcEnd end = rcEnd(parent, 1, 32);
        connectToChild(end, child, childQueuePair);
        MemoryRegion buffers = parent.register(32L * slotBytes, LOCAL_WRITE);
        for (int slot = 0; slot < 32; slot++) {
            end.queuePair().postReceive(slot, buffers, (long) slot * slotBytes, slotBytes);
        }

        child.call("SEND_STREAM " + childQueuePair[1] + " " + messages + " " + SEED + " 64 " + slotBytes, "SENDING");
        long checksumSum = 0;
        for (long sequence = 0; sequence < messages; sequence++) {
            Completion completion = awaitCompletion(end.completionQueue(), "message " + sequence + " from the child");
            checksumSum += checkChildMessage(completion, buffers, slotBytes, sequence);
            end.queuePair().postReceive(completion.requestId(), buffers, completion.requestId() * slotBytes, slotBytes);
        }
        String[] sent = child.expect("SENT");
        assertThat(Long.parseLong(sent[1])).isEqualTo(messages);
        assertThat(Long.parseLong(sent[2]))
                .as("sum of checksums (seed=%d)", SEED)
                .isEqualTo(checksumSum);
    }

    @Test
    void udSendsReachAChildExactlyOnceAndIntact() throws IOException {
        Fabric parent = open("parent");
        assumeTrue(parent.capabilities().supportsUd(), "provider has UD");
        int messages = 256;
        PeerProcess child = startChild(config("child"));
        String[] childQueuePair = child.call("UD 1 " + messages, "UD");
        UdEnd end = udEnd(parent, 32, 1);
        int mtu = end.queuePair().mtuBytes();
        child.call(
                "RECV_STREAM " + childQueuePair[1] + " " + messages + " " + mtu + " "
                        + hex(end.queuePair().address().toBytes()),
                "POSTED");
        QueuePairAddress destination = parent.importAddress(unhex(childQueuePair[2]));
        assertThat(destination.type()).isEqualTo(QueuePairType.UD);

        long checksumSum = sendStream(parent, end.completionQueue(), end.queuePair(), messages, 64, mtu, destination);
        String[] received = child.expect("RECEIVED");
        assertThat(Long.parseLong(received[1])).isEqualTo(messages);
        assertThat(Long.parseLong(received[2]))
                .as("sum of checksums (seed=%d)", SEED)
                .isEqualTo(checksumSum);
    }

    // ============================================================================================ crash and stale

    @Test
    void killingASendingChildTurnsIntoAnErrorCompletionAndLeavesNoSharedFiles() throws Exception {
        int slotBytes = 64 * KIB;
        Fabric parent = open("parent"); // the provider's default peer timeout
        PeerProcess child = startChild(config("child").withReceiverNotReadyTimeout(Duration.ofSeconds(60)));
        String[] childQueuePair = child.call("RC 16 1", "RC");
        RcEnd end = rcEnd(parent, 1, 32);
        connectToChild(end, child, childQueuePair);
        MemoryRegion buffers = parent.register(32L * slotBytes, LOCAL_WRITE);
        for (int slot = 0; slot < 32; slot++) {
            end.queuePair().postReceive(slot, buffers, (long) slot * slotBytes, slotBytes);
        }
        child.call("SEND_STREAM " + childQueuePair[1] + " -1 " + SEED + " 64 " + slotBytes, "SENDING");
        long sequence = 0;
        for (; sequence < 500; sequence++) {
            Completion completion = awaitCompletion(end.completionQueue(), "message " + sequence + " from the child");
            checkChildMessage(completion, buffers, slotBytes, sequence);
            end.queuePair().postReceive(completion.requestId(), buffers, completion.requestId() * slotBytes, slotBytes);
        }

        long killedNs = System.nanoTime();
        child.kill(); // SIGKILL in the middle of the stream
        Completion failure = null;
        while (failure == null) {
            Completion completion = awaitCompletion(end.completionQueue(), "an error completion after SIGKILL");
            if (completion.isSuccess()) { // delivered before the kill: must still be intact and in order
                checkChildMessage(completion, buffers, slotBytes, sequence++);
                end.queuePair()
                        .postReceive(completion.requestId(), buffers, completion.requestId() * slotBytes, slotBytes);
            } else {
                failure = completion;
            }
            if (failure == null && System.nanoTime() - killedNs > WAIT.toNanos()) {
                fail("no error completion within %s of SIGKILL", WAIT);
            }
        }
        reportDetection("receiver of a killed sender", killedNs, failure);
        assertThat(failure.status()).as("%s", failure).isIn(PEER_GONE);
        assertThat(end.queuePair().state()).isEqualTo(QueuePairState.ERROR);

        parent.close();
        assertNoSharedResourcesLeft("after the survivor of a SIGKILL closed");
    }

    @Test
    void killingAReceivingChildTurnsIntoAnErrorCompletionAndLeavesNoSharedFiles() throws Exception {
        int maxBytes = 64 * KIB;
        int depth = 16;
        // RNR retries outlast every bound here: the error must come from detecting the death
        Fabric parent = open(config("parent").withReceiverNotReadyTimeout(Duration.ofSeconds(120)));
        PeerProcess child = startChild(config("child"));
        String[] childQueuePair = child.call("RC 1 32", "RC");
        RcEnd end = rcEnd(parent, depth, 1);
        connectToChild(end, child, childQueuePair);
        child.call("RECV_STREAM " + childQueuePair[1] + " -1 " + maxBytes, "POSTED");
        MemoryRegion buffers = parent.register((long) depth * maxBytes, NO_RIGHTS);
        WorkRequest request = new WorkRequest();
        long posted = 0;
        long completed = 0;
        long killedNs = 0;
        Completion failure = null;
        WorkCompletion[] completions = WorkCompletion.array(depth);
        long deadlineNs = System.nanoTime() + WAIT.multipliedBy(3).toNanos();
        while (failure == null) {
            while (posted - completed < depth) {
                long offset = (posted % depth) * maxBytes;
                int length = TestPayloads.messageLength(SEED, FabricPeerMain.PARENT_STREAM, posted, 64, maxBytes);
                TestPayloads.writeMessage(buffers.segment(), offset, FabricPeerMain.PARENT_STREAM, posted, length);
                end.queuePair()
                        .postSend(request.clear()
                                .requestId(posted)
                                .opcode(Opcode.SEND)
                                .local(buffers, offset, length));
                posted++;
            }
            int polled = end.completionQueue().await(completions, 100, TimeUnit.MILLISECONDS);
            for (int i = 0; i < polled && failure == null; i++) {
                if (completions[i].status().isSuccess()) {
                    completed++;
                } else {
                    failure = Completion.of(completions[i]);
                }
            }
            if (failure == null && killedNs == 0 && completed >= 500) {
                killedNs = System.nanoTime();
                child.kill(); // SIGKILL in the middle of the stream
                deadlineNs = killedNs + WAIT.toNanos();
            }
            if (failure == null && System.nanoTime() - deadlineNs > 0) {
                fail(
                        killedNs == 0
                                ? "stream to the child stalled after %d completions"
                                : "no error completion within " + WAIT + " of SIGKILL (%d completions)",
                        completed);
            }
        }
        assertThat(killedNs)
                .as("the error came after the kill, not before: %s", failure)
                .isPositive();
        reportDetection("sender to a killed receiver", killedNs, failure);
        assertThat(failure.status()).as("%s", failure).isIn(PEER_GONE);

        parent.close();
        assertNoSharedResourcesLeft("after the survivor of a SIGKILL closed");
    }

    @Test
    void staleResourcesOfAKilledProcessAreRemovedWhenTheNextNodeOpens() throws Exception {
        assumeTrue(sharedResources() != null, "provider has no shared resources");
        assertThat(sharedResources()).as("no resources before the test").isEmpty();
        PeerProcess child = startChild(config("doomed"));
        child.call("REGION " + 64 * KIB + " " + bits(ALL_RIGHTS), "REGION");
        child.call("RC 4 4", "RC");
        child.call("UD 4 4", "UD");
        List<String> left = sharedResources();
        assertThat(left).as("the child's node created shared resources").isNotEmpty();

        child.kill();
        assertThat(sharedResources())
                .as("a SIGKILLed process cannot clean up after itself")
                .isNotEmpty();

        Fabric next = open("next");
        assertThat(sharedResources())
                .as("resources of the killed process once the next node opened")
                .doesNotContainAnyElementsOf(left);
        next.close();
        assertNoSharedResourcesLeft("after the next node closed");
    }

    // ================================================================================================== helpers

    private void assertNoSharedResourcesLeft(String when) {
        List<String> left = sharedResources();
        if (left != null) {
            assertThat(left).as("shared resources left %s", when).isEmpty();
        }
    }

    private static void reportDetection(String who, long killedNs, Completion failure) {
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs);
        System.out.printf(
                "[fabric conformance] %s: %s %d ms after SIGKILL (promise: within %d ms)%n",
                who, failure, elapsedMs, PROMISED_FAILURE_DETECTION.toMillis());
    }

    /** Checks a message the child sent: success, intact, the expected sequence; returns its checksum. */
    private static long checkChildMessage(Completion completion, MemoryRegion buffers, int slotBytes, long sequence) {
        assertSuccess(completion, completion.requestId(), Opcode.RECEIVE);
        MemorySegment segment = buffers.segment();
        long offset = completion.requestId() * slotBytes;
        String problem = TestPayloads.verifyMessage(segment, offset, completion.byteLength());
        if (problem != null) {
            fail("message %d from the child: %s (seed=%d)", sequence, problem, SEED);
        }
        assertThat(TestPayloads.stream(segment, offset)).isEqualTo(FabricPeerMain.CHILD_STREAM);
        assertThat(TestPayloads.sequence(segment, offset)).as("RC order").isEqualTo(sequence);
        assertThat(completion.byteLength())
                .isEqualTo(TestPayloads.messageLength(SEED, FabricPeerMain.CHILD_STREAM, sequence, 64, slotBytes));
        return TestPayloads.statedChecksum(segment, offset);
    }

    private static long sendStream(RcEnd end, int messages, int minBytes, int maxBytes, QueuePairAddress destination) {
        return sendStream(
                end.fabric(), end.completionQueue(), end.queuePair(), messages, minBytes, maxBytes, destination);
    }

    /**
     * Streams {@code messages} SENDs of the parent stream on {@code queuePair} (its send completions go to
     * {@code completionQueue}); returns the sum of their checksums.
     */
    private static long sendStream(
            Fabric fabric,
            CompletionQueue completionQueue,
            QueuePair queuePair,
            int messages,
            int minBytes,
            int maxBytes,
            QueuePairAddress destination) {
        int depth = queuePair.sendQueueDepth();
        MemoryRegion buffers = fabric.register((long) depth * maxBytes, NO_RIGHTS);
        WorkRequest request = new WorkRequest();
        long checksumSum = 0;
        long completed = 0;
        for (long sequence = 0; sequence < messages; sequence++) {
            if (sequence - completed == depth) {
                Completion completion = awaitCompletion(completionQueue, "send " + completed);
                assertSuccess(completion, completed, Opcode.SEND);
                completed++;
            }
            long offset = (sequence % depth) * maxBytes;
            int length = TestPayloads.messageLength(SEED, FabricPeerMain.PARENT_STREAM, sequence, minBytes, maxBytes);
            checksumSum += TestPayloads.writeMessage(
                    buffers.segment(), offset, FabricPeerMain.PARENT_STREAM, sequence, length);
            queuePair.postSend(request.clear()
                    .requestId(sequence)
                    .opcode(Opcode.SEND)
                    .local(buffers, offset, length)
                    .destination(destination));
        }
        for (Completion completion : awaitCompletions(completionQueue, (int) (messages - completed), "last sends")) {
            assertSuccess(completion, completed++, Opcode.SEND);
        }
        return checksumSum;
    }
}
