package dev.faro.zerosided;

import dev.faro.fabric.FaultInjection;
import dev.faro.zerosided.link.ShmPacketLink;
import dev.faro.zerosided.switching.SwitchConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 1:1 flow whose switch and NICs talk over shared-memory packet links (the multi-process runs' link) with 1 % loss,
 * reordering and duplication injected around every link: exactly-once, in-order delivery, the payload bound, no PU
 * communication.
 */
class ShmLinkFlowTest {

    @TempDir
    Path directory;

    @Test
    void oneToOneOverSharedMemoryLinksDeliversExactlyOnceInOrderUnderFaults() throws Exception {
        SwitchConfig config = SwitchConfig.DEFAULT.withRetryTimeoutNs(2_000_000);
        try (Testbed bed = new Testbed(
                config, new FaultInjection(7, 0.01, 0.01, 0.01), 0, 2, () -> ShmPacketLink.open(directory))) {
            ZeroSidedFlowTest.oneToOneDeliversExactlyOnceInOrder(bed, 256, 5, 9, 6_000);
        }
    }
}
