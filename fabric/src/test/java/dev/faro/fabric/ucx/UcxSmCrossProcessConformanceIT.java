package dev.faro.fabric.ucx;

import dev.faro.fabric.CrossProcessConformanceSuite;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.testing.Requirement;
import dev.faro.fabric.testing.Requires;

/**
 * The fabric contract for the {@code ucx} provider across real processes over UCX's shared-memory transports
 * ({@code ucx.tls=sm,self}: posix, sysv, cma), where endpoints have no UCX peer failure handling and the provider's
 * heartbeat alone detects a killed peer.
 *
 * <p>One case cannot hold here and is skipped with its reason: on shared memory the initiator moves the bytes of WRITE
 * and READ (like {@code shm}), while FETCH_ADD and COMPARE_SWAP are applied by the target's progress thread (JUCX
 * exposes no UCX atomics), so against a stopped process the first two complete and the atomics wait until it
 * continues: neither of the suite's two expectations.
 */
@Requires(Requirement.UCX)
class UcxSmCrossProcessConformanceIT extends CrossProcessConformanceSuite {

    @Override
    protected FabricConfig config(String nodeName) {
        return UcxTesting.config(nodeName, "sm,self");
    }

    @Override
    protected String whyOneSidedOperationsOnAStoppedProcessCannotHold() {
        return "ucx over shared memory: WRITE and READ complete without the target process, atomics (applied by the"
                + " target's progress thread, JUCX has no UCX atomics) wait for it to continue";
    }
}
