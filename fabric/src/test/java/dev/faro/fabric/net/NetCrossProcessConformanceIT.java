package dev.faro.fabric.net;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.Completion;
import dev.faro.fabric.CrossProcessConformanceSuite;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.PeerProcess;
import dev.faro.fabric.QueuePairState;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fabric contract for the {@code net} provider across real processes: this JVM and {@code FabricPeerMain}
 * children, each a node on its own loopback port, sharing the test secret through their command line. The
 * provider has no shared files, so the stale-resource case does not apply; a stopped child's progress thread is
 * stopped with it, so one-sided operations to it complete once it continues
 * ({@link #oneSidedOperationsNeedTheTargetProcess()}).
 *
 * <p>Beyond the suite: a peer that goes silent without closing anything (stopped, like a host whose link went down)
 * turns into error completions once the peer timeout passes.
 *
 * <p>{@link NetNamespacesCrossProcessConformanceIT} runs all of this again with the children in a network namespace.
 */
class NetCrossProcessConformanceIT extends CrossProcessConformanceSuite {

    private static final HexFormat HEX = HexFormat.of();

    @Override
    protected FabricConfig config(String nodeName) {
        return NetTesting.config(nodeName);
    }

    @Override
    protected boolean oneSidedOperationsNeedTheTargetProcess() {
        return true;
    }

    @Override
    protected void afterNodesClosed() {
        NetTesting.assertNoProgressThreadLeft("after every node of the test closed");
    }

    @Test
    void aPeerThatGoesSilentFailsItsQueuePairsAfterThePeerTimeout() throws Exception {
        Duration peerTimeout = Duration.ofSeconds(1);
        Fabric parent = open(config("parent").withPeerTimeout(peerTimeout));
        PeerProcess child = startChild(config("child").withPeerTimeout(Duration.ofSeconds(60)));
        String[] region = child.call("REGION 65536 " + Access.toBits(ALL_RIGHTS), "REGION");
        String[] childQueuePair = child.call("RC 1 1", "RC");
        RcEnd end = rcEnd(parent, 8, 4);
        end.queuePair().connect(parent.importAddress(HEX.parseHex(childQueuePair[2])));
        child.call(
                "CONNECT " + childQueuePair[1] + " "
                        + HEX.formatHex(end.queuePair().address().toBytes()),
                "OK");
        RemoteKey key = parent.importRemoteKey(HEX.parseHex(region[2]));
        MemoryRegion local = parent.register(65536, EnumSet.of(Access.LOCAL_WRITE));
        end.queuePair().postReceive(100, local, 32768, 1024);
        end.queuePair().postReceive(101, local, 33792, 1024);
        WorkRequest request = new WorkRequest();
        end.queuePair()
                .postSend(request.clear()
                        .requestId(1)
                        .opcode(Opcode.WRITE)
                        .local(local, 0, 4096)
                        .remote(key, 0));
        assertSuccess(awaitCompletion(end.completionQueue(), "WRITE while the child runs"), 1, Opcode.WRITE);

        child.signal("STOP"); // no FIN, no RST: the child's sockets stay open, it just says nothing any more
        long stoppedNs = System.nanoTime();
        List<Completion> completions;
        try {
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(2)
                            .opcode(Opcode.WRITE)
                            .local(local, 0, 4096)
                            .remote(key, 4096));
            end.queuePair()
                    .postSend(request.clear()
                            .requestId(3)
                            .opcode(Opcode.READ)
                            .local(local, 8192, 4096)
                            .remote(key, 0));
            completions = awaitCompletions(end.completionQueue(), 4, "requests and receives of a silent peer");
        } finally {
            child.signal("CONT");
        }
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedNs);
        System.out.printf(
                "[net] a silent peer failed the queue pair %d ms after it stopped (peer timeout %d ms)%n",
                elapsedMs, peerTimeout.toMillis());
        assertThat(completions).extracting(Completion::requestId).containsExactlyInAnyOrder(2L, 3L, 100L, 101L);
        assertThat(completions)
                .as("%s", completions)
                .extracting(Completion::status)
                .allMatch(PEER_GONE::contains);
        assertThat(end.queuePair().state()).isEqualTo(QueuePairState.ERROR);
        assertThat(parent.counters().peerFailures()).isEqualTo(1);
    }
}
