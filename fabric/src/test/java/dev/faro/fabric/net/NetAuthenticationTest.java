package dev.faro.fabric.net;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.Completion;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricCounters;
import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.FabricTesting.UdEnd;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.TestPayloads;
import dev.faro.fabric.WorkRequest;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared secret: a node refuses a TCP peer or a datagram that does not prove it, with a clear log line, and
 * nothing else changes at that node; the initiator whose peer refused it sees error completions, not a hang.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class NetAuthenticationTest {

    private final List<Fabric> nodes = new ArrayList<>();

    private Fabric open(String name, String secret) {
        Fabric fabric = Fabrics.open(
                FabricConfig.of(NetFabricProvider.NAME, name).withOption(NetFabricProvider.SECRET_OPTION, secret));
        nodes.add(fabric);
        return fabric;
    }

    @AfterEach
    void closeNodes() {
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).close();
        }
        NetTesting.assertNoProgressThreadLeft("after the test");
    }

    @Test
    void aPeerWithAnotherSecretIsRefusedAndChangesNothing() throws InterruptedException {
        try (LogCapture log = new LogCapture()) {
            Fabric intruder = open("intruder", "not-the-secret");
            Fabric target = open("target", "the-secret");
            MemoryRegion region = target.register(4096, EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE));
            TestPayloads.fill(region.segment(), 0, 4096, 7);
            byte[] before = TestPayloads.snapshot(region.segment(), 0, 4096);
            RcEnd victim = rcEnd(target, 4, 4); // stays in INIT: the target never dials back
            victim.queuePair().postReceive(1, region, 0, 64);
            FabricCounters targetBefore = target.counters();
            RcEnd attacker = rcEnd(intruder, 4, 4);
            attacker.queuePair().connect(addressAt(intruder, victim.queuePair()));
            MemoryRegion source = intruder.register(4096, NO_RIGHTS);

            attacker.queuePair()
                    .postSend(new WorkRequest()
                            .requestId(1)
                            .opcode(Opcode.WRITE)
                            .local(source, 0, 4096)
                            .remote(keyAt(intruder, region), 0));
            attacker.queuePair()
                    .postSend(new WorkRequest().requestId(2).opcode(Opcode.SEND).local(source, 0, 64));
            List<Completion> completions = awaitCompletions(attacker.completionQueue(), 2, "requests of the intruder");
            assertThat(completions).extracting(Completion::requestId).containsExactly(1L, 2L);
            assertThat(completions).extracting(Completion::status).allMatch(PEER_GONE::contains);
            assertThat(attacker.queuePair().state()).isEqualTo(QueuePairState.ERROR);

            assertThat(TestPayloads.unchanged(region.segment(), 0, before))
                    .as("the target's memory")
                    .isTrue();
            assertThat(victim.queuePair().postedReceives())
                    .as("the target's receive is still posted")
                    .isEqualTo(1);
            assertThat(victim.queuePair().state()).isEqualTo(QueuePairState.INIT);
            assertNoCompletion(victim.completionQueue(), "the target learns nothing");
            assertThat(target.counters()).as("the target's counters").isEqualTo(targetBefore);
            assertThat(((NetFabric) target).authenticationFailures()).isEqualTo(1);
            java.util.function.Predicate<String> refusedByTarget =
                    line -> line.startsWith("WARNING fabric node target: refused TCP connection from")
                            && line.contains("did not prove the shared secret");
            assertThat(log.linesOnceAnyMatches(refusedByTarget, 10_000))
                    .as("log")
                    .anyMatch(refusedByTarget);
            java.util.function.Predicate<String> intruderTold =
                    line -> line.contains("fabric node intruder: peer node") && line.contains("refused this node");
            assertThat(log.linesOnceAnyMatches(intruderTold, 10_000)).as("log").anyMatch(intruderTold);
        }
    }

    @Test
    void aClientThatIsNoFabricNodeIsRefused() throws Exception {
        try (LogCapture log = new LogCapture()) {
            Fabric target = open("target", "the-secret");
            RcEnd end = rcEnd(target, 4, 4);
            InetSocketAddress listening = ((NetQueuePairAddress) end.queuePair().address()).address.tcp();
            try (Socket socket = new Socket()) {
                socket.connect(listening, 5_000);
                OutputStream out = socket.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: faro\r\n\r\n".repeat(4).getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.setSoTimeout(10_000);
                assertThat(socket.getInputStream().read())
                        .as("the node closes the connection")
                        .isEqualTo(-1);
            }
            awaitCondition(
                    () -> log.lines().stream()
                            .anyMatch(line ->
                                    line.contains("refused TCP connection") && line.contains("not a faro net frame")),
                    "the refusal is logged: " + log.lines());
            assertThat(target.counters().peerFailures()).isZero();
            assertThat(end.queuePair().state()).isEqualTo(QueuePairState.INIT);
        }
    }

    @Test
    void aDatagramWithoutTheSecretIsDroppedAndLogged() throws Exception {
        try (LogCapture log = new LogCapture()) {
            Fabric intruder = open("intruder", "not-the-secret");
            Fabric target = open("target", "the-secret");
            UdEnd receiver = udEnd(target, 1, 4);
            MemoryRegion buffer = target.register(4096, LOCAL_WRITE);
            receiver.queuePair().postReceive(1, buffer, 0, 4096);
            UdEnd sender = udEnd(intruder, 4, 1);
            MemoryRegion source = intruder.register(256, NO_RIGHTS);
            TestPayloads.fill(source.segment(), 0, 256, 3);

            sender.queuePair()
                    .postSend(new WorkRequest()
                            .requestId(1)
                            .local(source, 0, 256)
                            .destination(addressAt(intruder, receiver.queuePair())));
            assertSuccess(awaitCompletion(sender.completionQueue(), "the intruder's UD send"), 1, Opcode.SEND);
            try (DatagramSocket raw = new DatagramSocket()) {
                byte[] junk = "not a datagram of the fabric".getBytes(StandardCharsets.US_ASCII);
                raw.send(new DatagramPacket(
                        junk,
                        junk.length,
                        ((NetQueuePairAddress) receiver.queuePair().address()).udp));
            }
            awaitCondition(
                    () -> ((NetFabric) target).authenticationFailures() == 1
                            && log.lines().stream()
                                            .filter(l -> l.contains("refused a UDP datagram"))
                                            .count()
                                    == 2,
                    "both datagrams refused and logged: " + log.lines());
            assertThat(log.lines()).anyMatch(line -> line.contains("its tag does not verify"));
            assertThat(log.lines()).anyMatch(line -> line.contains("not a faro net datagram"));
            assertThat(receiver.queuePair().postedReceives())
                    .as("the receive is still posted")
                    .isEqualTo(1);
            assertThat(receiver.queuePair().receivesMissed()).isZero();
            assertNoCompletion(receiver.completionQueue(), "nothing arrived");
            assertThat(TestPayloads.mismatch(buffer.segment(), 0, 4096, 0)).isNotEqualTo(-1); // not the payload
        }
    }

    @Test
    void nodesWithTheSameSecretTalk() {
        Fabric a = open("a", "shared");
        Fabric b = open("b", "shared");
        var link = connectRc(a, b, 4, 4);
        MemoryRegion target = b.register(4096, EnumSet.of(Access.REMOTE_WRITE));
        MemoryRegion source = a.register(4096, NO_RIGHTS);
        TestPayloads.fill(source.segment(), 0, 4096, 9);
        link.a()
                .queuePair()
                .postSend(new WorkRequest()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(source, 0, 4096)
                        .remote(keyAt(a, target), 0));
        assertSuccess(awaitCompletion(link.a().completionQueue(), "WRITE"), 1, Opcode.WRITE);
        assertThat(TestPayloads.mismatch(target.segment(), 0, 4096, 9)).isEqualTo(-1);
        assertThat(((NetFabric) b).authenticationFailures()).isZero();
    }
}
