package dev.faro.middleware;

import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;
import org.junit.jupiter.api.Test;

/**
 * The middleware over the {@code ucx} provider (UCX's shared-memory transports), as over {@code shm} and {@code net}:
 * its one-sided WRITEs into the mirrored rings and its SEND notifications on real UCX, rings far smaller than the data.
 * Needs libucx: skipped with one line without it, failed under {@code FARO_REQUIRE=ucx}.
 */
@Requires(Requirement.UCX)
class UcxMiddlewareTest {

    private final ShuffleMiddlewareTest shuffles = new ShuffleMiddlewareTest();

    @Test
    void everyRowArrivesExactlyOnceOverUcx() throws Exception {
        shuffles.everyRowArrivesExactlyOnceAtItsWorker("ucx", 3, 2, 3);
    }

    @Test
    void gatherAndBroadcastOverUcx() throws Exception {
        shuffles.gatherBringsEveryRowToTheMasterAndBroadcastToEveryWorker("ucx");
    }
}
