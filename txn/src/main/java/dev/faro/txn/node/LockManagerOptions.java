package dev.faro.txn.node;

import dev.faro.txn.lock.DeadlockPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the lock servers and agents behave.
 *
 * @param policy what a server does with a request it cannot grant at once
 * @param lockTimeout the bounded wait of a queued request (the thesis: e.g. 100 ms)
 * @param responseTimeout how long an agent waits for any answer before it declares the server lost (a bound against
 *     hangs, far above the lock timeout)
 * @param probeInterval how long a server lets an agent that holds locks here stay silent before it checks, with a
 *     one-sided READ of the agent's mailbox, that the agent is alive; a failed READ releases the agent's locks
 * @param voteNoProbability fault injection: the chance that a server votes no (0 in normal runs)
 * @param maxInjectedDelay fault injection: a server delays each message by up to this much ({@link Duration#ZERO}:
 *     none)
 * @param seed seeds the fault injection
 * @param busyPolling servers never sleep when idle (spin, then yield), as the thesis's servers poll; false: they park
 *     for a few µs after a while without work, which leaves the CPU to others on small machines (tests)
 * @param agentYield how long a waiting agent yields its core before it parks (spinning first): an answer that comes
 *     while it yields costs a scheduling round, one that comes while it parks at least the kernel's timer slack
 *     (~70 µs here); the thesis's agents, one per pinned core, never leave it
 * @param cpus the CPUs the servers' threads run on, and the agents' threads when their owner pins them ({@link
 *     LockManagerNode#pinToCpus}); empty: wherever the operating system puts them. With more threads than cores a lock
 *     round trip is fast only when the agent and the server it asks share a core (the waiting thread's yield hands
 *     the core to the server); on another core the answer waits for that core's scheduler to switch. Nodes sharing one
 *     host therefore get a share of its cores each, as the thesis's machines have cores of their own and its
 *     processes are pinned.
 */
public record LockManagerOptions(
        DeadlockPolicy policy,
        Duration lockTimeout,
        Duration responseTimeout,
        Duration probeInterval,
        double voteNoProbability,
        Duration maxInjectedDelay,
        long seed,
        boolean busyPolling,
        Duration agentYield,
        List<Integer> cpus) {

    public LockManagerOptions {
        Objects.requireNonNull(policy, "policy is null");
        Objects.requireNonNull(lockTimeout, "lockTimeout is null");
        Objects.requireNonNull(responseTimeout, "responseTimeout is null");
        Objects.requireNonNull(probeInterval, "probeInterval is null");
        Objects.requireNonNull(maxInjectedDelay, "maxInjectedDelay is null");
        Objects.requireNonNull(agentYield, "agentYield is null");
        cpus = List.copyOf(Objects.requireNonNull(cpus, "cpus is null"));
        if (cpus.stream().anyMatch(cpu -> cpu < 0)) {
            throw new IllegalArgumentException("cpus must not be negative: " + cpus);
        }
        if (agentYield.isNegative()) {
            throw new IllegalArgumentException("agentYield must not be negative: " + agentYield);
        }
        if (lockTimeout.isNegative() || lockTimeout.isZero() || responseTimeout.compareTo(lockTimeout) <= 0) {
            throw new IllegalArgumentException("lockTimeout must be positive and below responseTimeout: lockTimeout="
                    + lockTimeout + ", responseTimeout=" + responseTimeout);
        }
        if (probeInterval.isNegative() || probeInterval.isZero()) {
            throw new IllegalArgumentException("probeInterval must be positive: " + probeInterval);
        }
        if (!(voteNoProbability >= 0 && voteNoProbability <= 1)) {
            throw new IllegalArgumentException("voteNoProbability must be in [0, 1]: " + voteNoProbability);
        }
    }

    /** The thesis's setting: bounded wait of 100 ms, no fault injection. */
    public static LockManagerOptions defaults() {
        return new LockManagerOptions(
                DeadlockPolicy.TIMEOUT,
                Duration.ofMillis(100),
                Duration.ofSeconds(20),
                Duration.ofSeconds(1),
                0,
                Duration.ZERO,
                1,
                false,
                DEFAULT_AGENT_YIELD,
                List.of());
    }

    /** An agent's yield before it parks unless set: about as long as a park costs, so a wait never costs two. */
    public static final Duration DEFAULT_AGENT_YIELD = Duration.ofNanos(100_000);

    public LockManagerOptions withPolicy(DeadlockPolicy newPolicy) {
        return new LockManagerOptions(
                newPolicy,
                lockTimeout,
                responseTimeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                agentYield,
                cpus);
    }

    public LockManagerOptions withLockTimeout(Duration timeout) {
        return new LockManagerOptions(
                policy,
                timeout,
                responseTimeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                agentYield,
                cpus);
    }

    public LockManagerOptions withResponseTimeout(Duration timeout) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                timeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                agentYield,
                cpus);
    }

    public LockManagerOptions withProbeInterval(Duration interval) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                responseTimeout,
                interval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                agentYield,
                cpus);
    }

    public LockManagerOptions withBusyPolling(boolean value) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                responseTimeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                value,
                agentYield,
                cpus);
    }

    public LockManagerOptions withFaults(double newVoteNoProbability, Duration newMaxInjectedDelay, long newSeed) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                responseTimeout,
                probeInterval,
                newVoteNoProbability,
                newMaxInjectedDelay,
                newSeed,
                busyPolling,
                agentYield,
                cpus);
    }

    public LockManagerOptions withAgentYield(Duration value) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                responseTimeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                value,
                cpus);
    }

    /** The same options with the threads on {@code value} (empty: not pinned). */
    public LockManagerOptions withCpus(List<Integer> value) {
        return new LockManagerOptions(
                policy,
                lockTimeout,
                responseTimeout,
                probeInterval,
                voteNoProbability,
                maxInjectedDelay,
                seed,
                busyPolling,
                agentYield,
                value);
    }
}
