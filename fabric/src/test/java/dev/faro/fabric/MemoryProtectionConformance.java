package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static dev.faro.fabric.TestPayloads.fill;
import static dev.faro.fabric.TestPayloads.mismatch;
import static dev.faro.fabric.TestPayloads.snapshot;
import static dev.faro.fabric.TestPayloads.unchanged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.RcLink;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Registered memory and protection: zeroed aligned regions with rights; WRITE, READ and the atomics with the rights;
 * every wrong key, bound or right fails with REMOTE_ACCESS_ERROR and changes nothing; deregistration; locally
 * invalid requests.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface MemoryProtectionConformance extends FabricNodes {

    /** A way to get a remote access wrong. */
    enum Violation {
        /** A key of a region on a third node, not on the connected peer. */
        KEY_OF_ANOTHER_NODE,
        /** A key of a region the peer has deregistered. */
        KEY_OF_DEREGISTERED_REGION,
        /** Straddling the end of the region (atomics: the word just past the end). */
        OUT_OF_BOUNDS,
        /** The region lacks the right the operation needs (it has all the others). */
        MISSING_RIGHT
    }

    static Stream<Arguments> remoteViolations() {
        List<Arguments> cases = new ArrayList<>();
        for (RemoteOp op : RemoteOp.values()) {
            for (Violation violation : Violation.values()) {
                cases.add(Arguments.of(op, violation));
            }
        }
        return cases.stream();
    }

    @Test
    default void registeredMemoryIsZeroedAlignedAndCarriesItsRights() {
        Fabric a = open("a");
        long length = 64 * KIB + 8;
        for (Set<Access> rights : List.of(NO_RIGHTS, LOCAL_WRITE, EnumSet.of(Access.REMOTE_READ), ALL_RIGHTS)) {
            MemoryRegion region = a.register(length, rights);
            assertThat(region.lengthBytes()).isEqualTo(length);
            assertThat(region.segment().byteSize()).isEqualTo(length);
            assertThat(region.segment().address() % 64)
                    .as("alignment of the segment")
                    .isZero();
            assertThat(MemorySegment.mismatch(
                            region.segment(), 0, length, MemorySegment.ofArray(new byte[(int) length]), 0, length))
                    .as("fresh memory is zeroed")
                    .isEqualTo(-1);
            assertThat(region.access()).isEqualTo(rights);
            assertThat(region.isRegistered()).isTrue();
            assertThat(region.remoteKey().lengthBytes()).isEqualTo(length);
            region.close();
            assertThat(region.isRegistered()).isFalse();
            region.close(); // idempotent
        }
    }

    @Test
    default void registeringANegativeLengthIsInvalidArgument() {
        Fabric a = open("a");
        assertFaroException(FaroException.Category.INVALID_ARGUMENT, "register(-1)", () -> a.register(-1, ALL_RIGHTS));
    }

    @Test
    default void remoteWritePlacesExactlyTheBytesAtTheOffset() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion target = b.register(64 * KIB, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(64 * KIB, NO_RIGHTS); // a SEND/WRITE source needs no right
        fill(source.segment(), 0, 64 * KIB, 1);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(source, 24, 1000)
                        .remote(key, 4099));
        Completion completion = awaitCompletion(link.a().completionQueue(), "WRITE");
        assertSuccess(completion, 1, Opcode.WRITE);
        assertThat(completion.queuePairNumber()).isEqualTo(link.a().queuePair().queuePairNumber());
        assertThat(MemorySegment.mismatch(target.segment(), 4099, 5099, source.segment(), 24, 1024))
                .as("written bytes")
                .isEqualTo(-1);
        byte[] zeros = new byte[64 * KIB];
        assertThat(MemorySegment.mismatch(target.segment(), 0, 4099, MemorySegment.ofArray(zeros), 0, 4099))
                .as("bytes before the write")
                .isEqualTo(-1);
        assertThat(MemorySegment.mismatch(
                        target.segment(), 5099, 64 * KIB, MemorySegment.ofArray(zeros), 5099, 64 * KIB))
                .as("bytes after the write")
                .isEqualTo(-1);

        // the whole region, and the last 64 bytes exactly at the bound
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 64 * KIB)
                        .remote(key, 0));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "WRITE of 64 KiB"), 2, Opcode.WRITE);
        assertThat(mismatch(target.segment(), 0, 64 * KIB, 1)).isEqualTo(-1);
        fill(source.segment(), 0, 64, 2);
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(3)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 64)
                        .remote(key, 64 * KIB - 64));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "WRITE ending at the bound"), 3, Opcode.WRITE);
        assertThat(mismatch(target.segment(), 64 * KIB - 64, 64, 2)).isEqualTo(-1);
        assertNoCompletion(link.b().completionQueue(), "the target of a WRITE learns nothing");
    }

    @Test
    default void remoteReadCopiesTheRemoteBytes() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion remote = b.register(8 * KIB, EnumSet.of(Access.REMOTE_READ));
        fill(remote.segment(), 0, 8 * KIB, 3);
        MemoryRegion local = a.register(8 * KIB, LOCAL_WRITE);

        link.a()
                .queuePair()
                .postSend(new WorkRequest()
                        .requestId(5)
                        .opcode(Opcode.READ)
                        .local(local, 17, 3000)
                        .remote(keyAt(a, remote), 1001));
        Completion completion = awaitCompletion(link.a().completionQueue(), "READ");
        assertSuccess(completion, 5, Opcode.READ);
        assertThat(completion.byteLength()).as("byteLength of a READ").isEqualTo(3000);
        assertThat(MemorySegment.mismatch(local.segment(), 17, 3017, remote.segment(), 1001, 4001))
                .isEqualTo(-1);
        assertThat(local.segment().get(ValueLayout.JAVA_BYTE, 16)).isZero();
        assertThat(local.segment().get(ValueLayout.JAVA_BYTE, 3017)).isZero();
        assertThat(mismatch(remote.segment(), 0, 8 * KIB, 3))
                .as("READ leaves the remote bytes")
                .isEqualTo(-1);
        assertNoCompletion(link.b().completionQueue(), "the target of a READ learns nothing");
    }

    @Test
    default void fetchAddAddsAndReturnsTheOldValue() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion remote = b.register(4096, EnumSet.of(Access.REMOTE_ATOMIC));
        remote.segment().set(ValueLayout.JAVA_LONG, 64, 1000);
        MemoryRegion result = a.register(64, LOCAL_WRITE);
        RemoteKey key = keyAt(a, remote);
        WorkRequest request = new WorkRequest();

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.FETCH_ADD)
                        .local(result, 8, 8)
                        .remote(key, 64)
                        .add(5));
        Completion completion = awaitCompletion(link.a().completionQueue(), "FETCH_ADD");
        assertSuccess(completion, 1, Opcode.FETCH_ADD);
        assertThat(completion.byteLength()).as("byteLength of an atomic").isEqualTo(8);
        assertThat(result.segment().get(ValueLayout.JAVA_LONG, 8))
                .as("old value")
                .isEqualTo(1000);
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 64))
                .as("new value")
                .isEqualTo(1005);

        remote.segment().set(ValueLayout.JAVA_LONG, 64, Long.MAX_VALUE);
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.FETCH_ADD)
                        .local(result, 16, 8)
                        .remote(key, 64)
                        .add(1));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "FETCH_ADD wrapping"), 2, Opcode.FETCH_ADD);
        assertThat(result.segment().get(ValueLayout.JAVA_LONG, 16)).isEqualTo(Long.MAX_VALUE);
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 64))
                .as("wraps like a 64-bit add")
                .isEqualTo(Long.MIN_VALUE);
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 56))
                .as("neighbour word")
                .isZero();
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 72))
                .as("neighbour word")
                .isZero();
    }

    @Test
    default void compareSwapSwapsOnlyWhenEqualAndReturnsTheOldValue() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion remote = b.register(4096, EnumSet.of(Access.REMOTE_ATOMIC));
        remote.segment().set(ValueLayout.JAVA_LONG, 4088, 7);
        MemoryRegion result = a.register(64, LOCAL_WRITE);
        RemoteKey key = keyAt(a, remote);
        WorkRequest request = new WorkRequest();

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.COMPARE_SWAP)
                        .local(result, 0, 8)
                        .remote(key, 4088)
                        .compareSwap(7, 42));
        Completion swapped = awaitCompletion(link.a().completionQueue(), "COMPARE_SWAP that matches");
        assertSuccess(swapped, 1, Opcode.COMPARE_SWAP);
        assertThat(swapped.byteLength()).isEqualTo(8);
        assertThat(result.segment().get(ValueLayout.JAVA_LONG, 0))
                .as("old value")
                .isEqualTo(7);
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 4088))
                .as("swapped")
                .isEqualTo(42);

        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.COMPARE_SWAP)
                        .local(result, 8, 8)
                        .remote(key, 4088)
                        .compareSwap(7, 99));
        assertSuccess(
                awaitCompletion(link.a().completionQueue(), "COMPARE_SWAP that does not match"),
                2,
                Opcode.COMPARE_SWAP);
        assertThat(result.segment().get(ValueLayout.JAVA_LONG, 8))
                .as("old value")
                .isEqualTo(42);
        assertThat(remote.segment().get(ValueLayout.JAVA_LONG, 4088))
                .as("not swapped")
                .isEqualTo(42);
    }

    @Test
    default void concurrentFetchAddsFromTwoNodesAreAtomic() throws Exception {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");
        int perInitiator = 2000;
        int batch = 16;
        MemoryRegion counter = b.register(64, EnumSet.of(Access.REMOTE_ATOMIC));
        RcLink ab = connectRc(a, b, batch, 1);
        RcLink cb = connectRc(c, b, batch, 1);
        long[] fromA = new long[perInitiator];
        long[] fromC = new long[perInitiator];

        runConcurrently(
                WAIT.multipliedBy(3),
                "fetch-add",
                () -> fetchAddMany(ab.a(), keyAt(a, counter), fromA, batch),
                () -> fetchAddMany(cb.a(), keyAt(c, counter), fromC, batch));

        assertThat(counter.segment().get(ValueLayout.JAVA_LONG, 0)).isEqualTo(2L * perInitiator);
        long[] all = new long[2 * perInitiator];
        System.arraycopy(fromA, 0, all, 0, perInitiator);
        System.arraycopy(fromC, 0, all, perInitiator, perInitiator);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            if (all[i] != i) {
                fail(
                        "old values are not exactly 0..%d: position %d holds %d (a lost or doubled add)",
                        all.length - 1, i, all[i]);
            }
        }
    }

    private static void fetchAddMany(RcEnd initiator, RemoteKey key, long[] oldValues, int batch) {
        MemoryRegion results = initiator.fabric().register(8L * batch, LOCAL_WRITE);
        WorkRequest request = new WorkRequest();
        for (int done = 0; done < oldValues.length; done += batch) {
            int count = Math.min(batch, oldValues.length - done);
            for (int i = 0; i < count; i++) {
                initiator
                        .queuePair()
                        .postSend(request.clear()
                                .requestId(i)
                                .opcode(Opcode.FETCH_ADD)
                                .local(results, 8L * i, 8)
                                .remote(key, 0)
                                .add(1));
            }
            for (Completion completion : awaitCompletions(initiator.completionQueue(), count, "FETCH_ADD batch")) {
                assertSuccess(completion, completion.requestId(), Opcode.FETCH_ADD);
            }
            for (int i = 0; i < count; i++) {
                oldValues[done + i] = results.segment().get(ValueLayout.JAVA_LONG, 8L * i);
            }
        }
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("dev.faro.fabric.MemoryProtectionConformance#remoteViolations")
    default void remoteAccessViolationFailsWithRemoteAccessErrorAndChangesNothing(RemoteOp op, Violation violation) {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");
        RcLink link = connectRc(a, b, 4, 4);
        int regionBytes = 4096;
        Set<Access> targetRights = EnumSet.allOf(Access.class);
        if (violation == Violation.MISSING_RIGHT) {
            targetRights.remove(op.right);
        }
        MemoryRegion target = b.register(regionBytes, targetRights);
        fill(target.segment(), 0, regionBytes, 11);
        MemoryRegion elsewhere = c.register(regionBytes, ALL_RIGHTS);
        fill(elsewhere.segment(), 0, regionBytes, 12);
        MemoryRegion local = a.register(regionBytes, ALL_RIGHTS);
        fill(local.segment(), 0, regionBytes, 13);
        MemoryRegion receiveBuffer = b.register(256, LOCAL_WRITE);
        if (op == RemoteOp.WRITE_WITH_IMMEDIATE) {
            link.b().queuePair().postReceive(1, receiveBuffer, 0, 256); // so a missing receive is not the error
        }

        RemoteKey key;
        long remoteOffset = 64;
        long compare = target.segment().get(ValueLayout.JAVA_LONG, 64);
        switch (violation) {
            case KEY_OF_ANOTHER_NODE -> {
                key = keyAt(a, elsewhere);
                compare = elsewhere.segment().get(ValueLayout.JAVA_LONG, 64);
            }
            case KEY_OF_DEREGISTERED_REGION -> {
                MemoryRegion gone = b.register(regionBytes, ALL_RIGHTS);
                key = keyAt(a, gone);
                gone.close();
            }
            case OUT_OF_BOUNDS -> {
                key = keyAt(a, target);
                remoteOffset = op.opcode.isAtomic() ? regionBytes : regionBytes - 64;
            }
            case MISSING_RIGHT -> key = keyAt(a, target);
            default -> throw new IllegalStateException("violation=" + violation);
        }
        byte[] targetBefore = snapshot(target.segment(), 0, regionBytes);
        byte[] elsewhereBefore = snapshot(elsewhere.segment(), 0, regionBytes);
        byte[] localBefore = snapshot(local.segment(), 0, regionBytes);
        byte[] receiveBefore = snapshot(receiveBuffer.segment(), 0, 256);

        link.a().queuePair().postSend(op.request(7, local, 256, key, remoteOffset, compare));
        Completion completion = awaitCompletion(link.a().completionQueue(), op + " with " + violation);

        assertThat(completion.requestId()).isEqualTo(7);
        assertThat(completion.status())
                .as("status of %s with %s: %s", op, violation, completion)
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(unchanged(target.segment(), 0, targetBefore))
                .as("target region unchanged")
                .isTrue();
        assertThat(unchanged(elsewhere.segment(), 0, elsewhereBefore))
                .as("third node's region unchanged")
                .isTrue();
        assertThat(unchanged(local.segment(), 0, localBefore))
                .as("local buffer unchanged")
                .isTrue();
        assertThat(unchanged(receiveBuffer.segment(), 0, receiveBefore))
                .as("receive buffer unchanged")
                .isTrue();
        assertThat(link.a().queuePair().state())
                .as("initiator after an error completion")
                .isEqualTo(QueuePairState.ERROR);
    }

    @ParameterizedTest
    @EnumSource(RemoteOp.class)
    default void remoteOffsetsOutsideEveryRegionAreRefusedAndChangeNothing(RemoteOp op) {
        Fabric a = open("a");
        Fabric b = open("b");
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        fill(target.segment(), 0, 4096, 21);
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        fill(local.segment(), 0, 4096, 22);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);
        byte[] localBefore = snapshot(local.segment(), 0, 4096);

        for (long offset : new long[] {-8, Long.MAX_VALUE - 7, Long.MIN_VALUE, 1L << 40}) {
            RcLink link = connectRc(a, b, 4, 4);
            if (op == RemoteOp.WRITE_WITH_IMMEDIATE) {
                link.b().queuePair().postReceive(1, receiveBuffer, 0, 4096);
            }
            WorkRequest request = op.request(9, local, 0, keyAt(a, target), offset, 0);
            String what = op + " at remote offset " + offset;
            if (postOrInvalidArgument(link.a().queuePair(), request, what)) {
                Completion completion = awaitCompletion(link.a().completionQueue(), what);
                assertThat(completion.status())
                        .as("%s: %s", what, completion)
                        .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
            } else {
                assertNoCompletion(link.a().completionQueue(), what + " was refused at post");
            }
            assertThat(unchanged(target.segment(), 0, targetBefore))
                    .as("%s: target unchanged", what)
                    .isTrue();
            assertThat(unchanged(local.segment(), 0, localBefore))
                    .as("%s: local unchanged", what)
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = RemoteOp.class,
            names = {"FETCH_ADD", "COMPARE_SWAP"})
    default void misalignedAtomicIsRefusedAndChangesNothing(RemoteOp op) {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        fill(target.segment(), 0, 4096, 31);
        MemoryRegion local = a.register(64, ALL_RIGHTS);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);
        long compare = target.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, 68);

        WorkRequest request = op.request(3, local, 0, keyAt(a, target), 68, compare);
        if (postOrInvalidArgument(link.a().queuePair(), request, "misaligned " + op)) {
            Completion completion = awaitCompletion(link.a().completionQueue(), "misaligned " + op);
            assertThat(completion.status())
                    .as("misaligned %s: %s", op, completion)
                    .isIn(CompletionStatus.REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_INVALID_REQUEST);
        }
        assertThat(unchanged(target.segment(), 0, targetBefore))
                .as("target unchanged")
                .isTrue();
        assertThat(local.segment().get(ValueLayout.JAVA_LONG, 0))
                .as("local result untouched")
                .isZero();
    }

    /** Posts; returns false if the post threw INVALID_ARGUMENT (allowed where the error is knowable locally). */
    private static boolean postOrInvalidArgument(QueuePair queuePair, WorkRequest request, String what) {
        try {
            queuePair.postSend(request);
            return true;
        } catch (FaroException e) {
            assertThat(e.category())
                    .as("%s refused at post: %s", what, e)
                    .isEqualTo(FaroException.Category.INVALID_ARGUMENT);
            assertThat(e.getMessage()).isNotBlank();
            return false;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = RemoteOp.class,
            names = {"WRITE", "READ", "FETCH_ADD"})
    default void deregistrationMakesLaterRemoteAccessFailEvenWhenMemoryIsRegisteredAgain(RemoteOp op) {
        Fabric a = open("a");
        Fabric b = open("b");
        MemoryRegion region = b.register(4096, ALL_RIGHTS);
        fill(region.segment(), 0, 4096, 41);
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        fill(local.segment(), 0, 4096, 42);
        RemoteKey key = keyAt(a, region);

        RcLink first = connectRc(a, b, 4, 4);
        first.a().queuePair().postSend(op.request(1, local, 0, key, 64, 0));
        assertSuccess(awaitCompletion(first.a().completionQueue(), op + " before deregistration"), 1, op.opcode);

        region.close();
        MemoryRegion replacement = b.register(4096, ALL_RIGHTS);
        fill(replacement.segment(), 0, 4096, 43);
        byte[] replacementBefore = snapshot(replacement.segment(), 0, 4096);
        byte[] localBefore = snapshot(local.segment(), 0, 4096);

        RcLink second = connectRc(a, b, 4, 4);
        second.a().queuePair().postSend(op.request(2, local, 0, key, 64, 0));
        Completion completion = awaitCompletion(second.a().completionQueue(), op + " after deregistration");
        assertThat(completion.status())
                .as("%s with the key of a deregistered region: %s", op, completion)
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
        assertThat(unchanged(replacement.segment(), 0, replacementBefore))
                .as("an old key must not reach a region registered later")
                .isTrue();
        assertThat(unchanged(local.segment(), 0, localBefore))
                .as("local buffer unchanged")
                .isTrue();
    }

    @Test
    default void locallyInvalidRequestsThrowInvalidArgumentAndPostNothing() {
        Fabric a = open("a");
        Fabric b = open("b");
        Fabric c = open("c");
        RcLink link = connectRc(a, b, 8, 8);
        RcQueuePair queuePair = link.a().queuePair();
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);
        RemoteKey key = keyAt(a, target);
        MemoryRegion local = a.register(4096, ALL_RIGHTS);
        MemoryRegion readOnlyLocal =
                a.register(4096, EnumSet.of(Access.REMOTE_READ, Access.REMOTE_WRITE, Access.REMOTE_ATOMIC));
        MemoryRegion foreign = c.register(4096, ALL_RIGHTS);
        WorkRequest request = new WorkRequest();
        FaroException.Category invalid = FaroException.Category.INVALID_ARGUMENT;

        assertFaroException(
                invalid,
                "WRITE beyond the local region",
                () -> queuePair.postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(local, 4000, 200)
                        .remote(key, 0)));
        assertFaroException(
                invalid,
                "WRITE at a negative local offset",
                () -> queuePair.postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(local, -1, 16)
                        .remote(key, 0)));
        assertFaroException(
                invalid,
                "READ into a region without LOCAL_WRITE",
                () -> queuePair.postSend(request.clear()
                        .requestId(3)
                        .opcode(Opcode.READ)
                        .local(readOnlyLocal, 0, 64)
                        .remote(key, 0)));
        assertFaroException(
                invalid,
                "FETCH_ADD into a region without LOCAL_WRITE",
                () -> queuePair.postSend(request.clear()
                        .requestId(4)
                        .opcode(Opcode.FETCH_ADD)
                        .local(readOnlyLocal, 0, 8)
                        .remote(key, 0)
                        .add(1)));
        assertFaroException(
                invalid,
                "WRITE from a region of another node",
                () -> queuePair.postSend(request.clear()
                        .requestId(5)
                        .opcode(Opcode.WRITE)
                        .local(foreign, 0, 64)
                        .remote(key, 0)));
        assertFaroException(
                invalid,
                "WRITE without a remote key",
                () -> queuePair.postSend(
                        request.clear().requestId(6).opcode(Opcode.WRITE).local(local, 0, 64)));
        assertFaroException(
                invalid,
                "postReceive into a region without LOCAL_WRITE",
                () -> queuePair.postReceive(7, readOnlyLocal, 0, 64));
        assertFaroException(invalid, "postReceive beyond the region", () -> queuePair.postReceive(8, local, 4090, 64));
        assertFaroException(
                invalid, "postReceive into a region of another node", () -> queuePair.postReceive(9, foreign, 0, 64));

        assertThat(queuePair.postedReceives()).as("no receive was posted").isZero();
        assertThat(queuePair.state())
                .as("local argument errors do not break the queue pair")
                .isEqualTo(QueuePairState.READY);
        assertNoCompletion(link.a().completionQueue(), "nothing was posted");
        assertThat(unchanged(target.segment(), 0, targetBefore))
                .as("target unchanged")
                .isTrue();

        fill(local.segment(), 0, 64, 44);
        queuePair.postSend(request.clear()
                .requestId(10)
                .opcode(Opcode.WRITE)
                .local(local, 0, 64)
                .remote(key, 0));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "valid WRITE afterwards"), 10, Opcode.WRITE);
        assertThat(mismatch(target.segment(), 0, 64, 44)).isEqualTo(-1);
    }

    @Test
    default void usingAClosedRegionIsRefusedWithAClearError() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 8, 8);
        RcQueuePair queuePair = link.a().queuePair();
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        byte[] targetBefore = snapshot(target.segment(), 0, 4096);
        RemoteKey key = keyAt(a, target);
        MemoryRegion closed = a.register(4096, ALL_RIGHTS);
        closed.close();
        Set<FaroException.Category> categories =
                EnumSet.of(FaroException.Category.INVALID_ARGUMENT, FaroException.Category.CLOSED);
        WorkRequest request = new WorkRequest();

        assertFaroException(
                categories,
                "WRITE from a closed region",
                () -> queuePair.postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(closed, 0, 64)
                        .remote(key, 0)));
        assertFaroException(
                categories,
                "READ into a closed region",
                () -> queuePair.postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.READ)
                        .local(closed, 0, 64)
                        .remote(key, 0)));
        assertFaroException(
                categories,
                "SEND from a closed region",
                () -> queuePair.postSend(
                        request.clear().requestId(3).opcode(Opcode.SEND).local(closed, 0, 64)));
        assertFaroException(
                categories, "postReceive into a closed region", () -> queuePair.postReceive(4, closed, 0, 64));

        assertThat(queuePair.postedReceives()).isZero();
        assertThat(queuePair.state()).isEqualTo(QueuePairState.READY);
        assertNoCompletion(link.a().completionQueue(), "nothing was posted");
        assertNoCompletion(link.b().completionQueue(), "nothing was posted");
        assertThat(unchanged(target.segment(), 0, targetBefore)).isTrue();
    }

    /** A request for {@code op} with its local buffer at {@code localOffset} (128 bytes, or 8 for atomics). */
}
