package dev.faro.fabric;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.RcLink;
import dev.faro.fabric.FabricTesting.UdEnd;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Peer failure and life cycle: a peer that closes turns requests that involve it into error completions (following,
 * outstanding, and posted receives without any traffic); closing a fabric closes everything it created.
 *
 * <p>Part of {@link FabricConformanceSuite}; every test opens its own nodes through {@link FabricNodes}.
 */
public interface PeerFailureConformance extends FabricNodes {

    @Test
    default void closingAPeerFailsTheRequestsThatFollow() {
        Duration peerTimeout = Duration.ofSeconds(1);
        Fabric a = open(nodeConfig("a").withPeerTimeout(peerTimeout));
        Fabric b = open(nodeConfig("b").withPeerTimeout(peerTimeout));
        RcLink link = connectRc(a, b, 8, 8);
        MemoryRegion target = b.register(4096, ALL_RIGHTS);
        MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
        link.b().queuePair().postReceive(1, receiveBuffer, 0, 4096);
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        RemoteKey key = keyAt(a, target);
        WorkRequest request = new WorkRequest();
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 64)
                        .remote(key, 0));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "WRITE while the peer lives"), 1, Opcode.WRITE);

        b.close();
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(2)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 64)
                        .remote(key, 0));
        link.a()
                .queuePair()
                .postSend(request.clear().requestId(3).opcode(Opcode.SEND).local(source, 0, 64));
        link.a()
                .queuePair()
                .postSend(request.clear()
                        .requestId(4)
                        .opcode(Opcode.READ)
                        .local(a.register(64, LOCAL_WRITE), 0, 64)
                        .remote(key, 0));
        List<Completion> completions = awaitCompletions(link.a().completionQueue(), 3, "requests to a closed peer");
        assertThat(completions).extracting(Completion::requestId).containsExactlyInAnyOrder(2L, 3L, 4L);
        assertThat(completions)
                .extracting(Completion::status)
                .as("%s", completions)
                .allMatch(PEER_GONE::contains);
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.ERROR);
        awaitCondition(() -> a.counters().peerFailures() > 0, "the survivor counts the closed peer in peerFailures");
    }

    @Test
    default void closingAPeerFlushesPostedReceivesWithoutAnyTraffic() {
        Duration peerTimeout = Duration.ofSeconds(1);
        Fabric a = open(nodeConfig("a").withPeerTimeout(peerTimeout));
        Fabric b = open(nodeConfig("b").withPeerTimeout(peerTimeout));
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion receiveBuffer = a.register(4096, LOCAL_WRITE);
        for (int i = 0; i < 3; i++) {
            link.a().queuePair().postReceive(i, receiveBuffer, 1024L * i, 1024);
        }

        b.close();
        List<Completion> completions = awaitCompletions(
                link.a().completionQueue(), 3, "posted receives on a queue pair whose peer closed (a only waits)");
        assertThat(completions).extracting(Completion::requestId).containsExactlyInAnyOrder(0L, 1L, 2L);
        assertThat(completions).as("%s", completions).noneMatch(Completion::isSuccess);
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.ERROR);
    }

    @Test
    default void closingAPeerFailsASendThatWaitsForAReceive() throws Exception {
        Duration peerTimeout = Duration.ofSeconds(1);
        Duration retryWindow = Duration.ofSeconds(60); // longer than every bound: the error must come from the close
        Fabric a = open(nodeConfig("a").withPeerTimeout(peerTimeout).withReceiverNotReadyTimeout(retryWindow));
        Fabric b = open(nodeConfig("b").withPeerTimeout(peerTimeout).withReceiverNotReadyTimeout(retryWindow));
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion source = a.register(64, NO_RIGHTS);
        AtomicReference<Completion> outcome = new AtomicReference<>();

        runConcurrently(
                WAIT.multipliedBy(2),
                "close-during-rnr",
                () -> {
                    awaitCondition(() -> a.counters().receiverNotReadyRetries() > 0, "the sender waits for a receive");
                    b.close();
                },
                () -> {
                    link.a().queuePair().postSend(new WorkRequest().requestId(8).local(source, 0, 64));
                    outcome.set(awaitCompletion(link.a().completionQueue(), "SEND waiting for a receive"));
                });
        assertThat(outcome.get().requestId()).isEqualTo(8);
        assertThat(outcome.get().status()).as("%s", outcome.get()).isIn(PEER_GONE);
    }

    /**
     * A receive completion at the target means the message was delivered: closing the target right after must not
     * turn the initiator's SEND or WRITE_WITH_IMMEDIATE into an error (its acknowledgement and the close can reach the
     * initiator together). Several rounds, since the race is timing-bound.
     */
    @Test
    default void messagesPlacedJustBeforeThePeerClosesSucceed() {
        for (int round = 0; round < 8; round++) {
            Fabric a = open("a" + round);
            Fabric b = open("b" + round);
            RcLink link = connectRc(a, b, 4, 4);
            MemoryRegion receiveBuffer = b.register(4096, LOCAL_WRITE);
            MemoryRegion target = b.register(4096, ALL_RIGHTS);
            link.b().queuePair().postReceive(1, receiveBuffer, 0, 2048);
            link.b().queuePair().postReceive(2, receiveBuffer, 2048, 2048);
            MemoryRegion source = a.register(4096, NO_RIGHTS);
            RemoteKey key = keyAt(a, target);
            WorkRequest request = new WorkRequest();
            link.a()
                    .queuePair()
                    .postSend(request.clear().requestId(1).opcode(Opcode.SEND).local(source, 0, 64));
            link.a()
                    .queuePair()
                    .postSend(request.clear()
                            .requestId(2)
                            .opcode(Opcode.WRITE_WITH_IMMEDIATE)
                            .immediate(7)
                            .local(source, 64, 64)
                            .remote(key, 0));
            List<Completion> placed = awaitCompletions(link.b().completionQueue(), 2, "receives at the target");
            assertThat(placed).as("%s", placed).allMatch(Completion::isSuccess);

            b.close();
            List<Completion> sent = awaitCompletions(
                    link.a().completionQueue(),
                    2,
                    "round " + round + ": the initiator's completions of what the target received");
            assertThat(sent).as("round %d: %s", round, sent).allMatch(Completion::isSuccess);
            a.close();
        }
    }

    // ================================================================================================ life cycle

    @Test
    default void closingAFabricClosesEverythingItCreated() {
        Fabric a = open("a");
        Fabric b = open("b");
        RcLink link = connectRc(a, b, 4, 4);
        MemoryRegion region = a.register(4096, ALL_RIGHTS);
        UdEnd ud = a.capabilities().supportsUd() ? udEnd(a, 4, 4) : null;

        a.close();
        assertThat(region.isRegistered()).isFalse();
        assertThat(link.a().queuePair().state()).isEqualTo(QueuePairState.CLOSED);
        assertFaroException(
                FaroException.Category.CLOSED,
                "postSend after the fabric closed",
                () -> link.a()
                        .queuePair()
                        .postSend(new WorkRequest().requestId(1).local(region, 0, 64)));
        if (ud != null) {
            assertThat(ud.queuePair().state()).isEqualTo(QueuePairState.CLOSED);
        }
        assertFaroException(
                FaroException.Category.CLOSED, "register after the fabric closed", () -> a.register(64, ALL_RIGHTS));
        assertFaroException(
                FaroException.Category.CLOSED,
                "createCompletionQueue after the fabric closed",
                () -> a.createCompletionQueue(4));
        a.close(); // idempotent
    }

    @Test
    default void closeIsIdempotentEverywhere() {
        Fabric a = open("a");
        RcEnd end = rcEnd(a, 4, 4);
        MemoryRegion region = a.register(64, ALL_RIGHTS);
        region.close();
        region.close();
        end.queuePair().close();
        end.queuePair().close();
        end.completionQueue().close();
        end.completionQueue().close();
        a.close();
        a.close();
    }
}
