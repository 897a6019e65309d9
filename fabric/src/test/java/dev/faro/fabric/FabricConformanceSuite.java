package dev.faro.fabric;

/**
 * The fabric contract ({@code shared/docs/architecture.md}, the "fabric contract" table), written once against the
 * API and run per provider: a provider's test class extends this and implements {@link #config(String)} (and, to
 * check its shared resources, {@link #afterNodesClosed()} / {@link #afterAllNodesClosed()}).
 *
 * <p>The tests live in one interface per contract area, mixed in here as JUnit test interfaces:
 * <table>
 *   <caption>Where each rule of the contract is tested</caption>
 *   <tr><td>{@link AddressConformance}</td><td>node ids, addresses and keys as bytes, RC connect rules</td></tr>
 *   <tr><td>{@link MemoryProtectionConformance}</td><td>registration, rights, keys, bounds: failures change
 *       nothing</td></tr>
 *   <tr><td>{@link RcConformance}</td><td>exactly once in order, WRITE_WITH_IMMEDIATE, signaling, inline,
 *       receiver-not-ready, error state</td></tr>
 *   <tr><td>{@link OneSidedConformance}</td><td>a WRITE's last word visible last; no activity at the target</td></tr>
 *   <tr><td>{@link UdConformance}</td><td>any destination, source named, drop-and-count, MTU, SEND only, seeded
 *       faults</td></tr>
 *   <tr><td>{@link QueueConformance}</td><td>QUEUE_FULL, CLOSED, completion-queue sizing, batch poll, event
 *       mode</td></tr>
 *   <tr><td>{@link PeerFailureConformance}</td><td>a closed peer turns into error completions; fabric close</td></tr>
 *   <tr><td>{@link StressConformance}</td><td>threads posting on shared queue pairs, checksummed, exactly once</td></tr>
 * </table>
 *
 * Every test opens its own two or three nodes in this JVM and exchanges addresses and keys as bytes, as a bootstrap
 * channel would. Cases with real child processes (SIGKILL, SIGSTOP, stale files) are in
 * {@link CrossProcessConformanceSuite}.
 *
 * <p>Rules: every wait is bounded ({@link FabricTesting#WAIT}); no test asserts a duration; randomised tests print
 * {@link FabricTesting#SEED} (override with {@code -Dfaro.test.seed=N}).
 */
public abstract class FabricConformanceSuite extends FabricTestHarness
        implements AddressConformance,
                MemoryProtectionConformance,
                RcConformance,
                OneSidedConformance,
                UdConformance,
                QueueConformance,
                PeerFailureConformance,
                StressConformance {}
