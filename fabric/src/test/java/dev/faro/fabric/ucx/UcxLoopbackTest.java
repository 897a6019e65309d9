package dev.faro.fabric.ucx;

import static dev.faro.fabric.FabricTesting.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.Access;
import dev.faro.fabric.Completion;
import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricTesting.RcEnd;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.Opcode;
import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** Queue pairs connected to each other on the same {@code ucx} node (the shuffle's path to its own node). */
@Requires(Requirement.UCX)
class UcxLoopbackTest {

    @Test
    void queuePairsOnOneNodeExchangeSendsAndWrites() {
        try (Fabric node = Fabrics.open(UcxTesting.config("solo", "sm,self"))) {
            RcEnd a = rcEnd(node, 4, 4);
            RcEnd b = rcEnd(node, 4, 4);
            connect(a, b);
            MemoryRegion source = node.register(4096, NO_RIGHTS);
            MemoryRegion target = node.register(4096, EnumSet.of(Access.REMOTE_WRITE, Access.LOCAL_WRITE));
            TestPayloadsAccess.fill(source);
            b.queuePair().postReceive(1, target, 2048, 1024);
            WorkRequest request = new WorkRequest();
            a.queuePair()
                    .postSend(request.clear()
                            .requestId(1)
                            .opcode(Opcode.WRITE)
                            .local(source, 0, 512)
                            .remote(keyAt(node, target), 0));
            a.queuePair()
                    .postSend(request.clear().requestId(2).opcode(Opcode.SEND).local(source, 0, 100));
            assertThat(awaitCompletions(a.completionQueue(), 2, "WRITE and SEND on one node"))
                    .allMatch(Completion::isSuccess);
            Completion received = awaitCompletion(b.completionQueue(), "the SEND");
            assertSuccess(received, 1, Opcode.RECEIVE);
            assertThat(target.segment()
                            .asSlice(0, 512)
                            .mismatch(source.segment().asSlice(0, 512)))
                    .isEqualTo(-1);
        }
    }

    /** Fills a region with a recognisable pattern. */
    private static final class TestPayloadsAccess {
        static void fill(MemoryRegion region) {
            for (long i = 0; i < region.lengthBytes(); i++) {
                region.segment().set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
        }
    }
}
