package dev.faro.bench.locks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faro.txn.lock.DeadlockPolicy;
import dev.faro.txn.node.LockManagerOptions;
import dev.faro.txn.node.Topology;
import dev.faro.txn.tpcc.TpccIsolation;
import dev.faro.txn.workload.SyntheticWorkload;
import dev.faro.txn.workload.TpccWorkload;
import dev.faro.txn.workload.Workload;
import java.time.Duration;
import java.util.Objects;

/**
 * One measured point of {@code faro bench locks}: where the lock servers and agents sit, the workload, and how long to
 * run. Travels to the workers as JSON (the payload of {@link LocksBenchHandler}).
 *
 * @param nodes worker processes (machines in the thesis)
 * @param serversPerNode lock servers per node
 * @param agentsPerNode transaction agents per node
 * @param workload {@link #SYNTHETIC} or {@link #TPCC}
 * @param remotePercent synthetic: the chance that a lock is on another node, in percent
 * @param locksPerTransaction synthetic: locks per transaction
 * @param hotPercent synthetic: the chance that a lock is one of the few hot ones, in percent (contention)
 * @param isolation TPC-C: the isolation level
 * @param policy deadlock handling
 * @param lockTimeoutMs the bounded wait
 * @param warmupMs load before the counters start
 * @param durationMs the counted load
 * @param pings round trips per kind (local, remote) measured before the load, after as many for warm-up; a quarter
 *     as many rounds per phase of the model's micro-benchmarks (each run cut at 0.5 s)
 * @param sharedHost the nodes share one host (a local cluster): each node's servers and agents are pinned to its share
 *     of the host's CPUs ({@link LockManagerOptions#cpus()}), as each of the thesis's machines has its own cores, so
 *     that every point sees the same placement
 */
public record LocksCase(
        int nodes,
        int serversPerNode,
        int agentsPerNode,
        String workload,
        double remotePercent,
        int locksPerTransaction,
        double hotPercent,
        TpccIsolation isolation,
        DeadlockPolicy policy,
        long lockTimeoutMs,
        long warmupMs,
        long durationMs,
        int pings,
        boolean sharedHost) {

    public static final String SYNTHETIC = "synthetic";
    public static final String TPCC = "tpcc";

    /**
     * How long a waiting agent yields before it parks: long enough that an answer delayed by a scheduling round (every
     * role shares 2 cores here) is not paid with a park (~70 µs), short enough that a request queued behind contention
     * does not keep a core busy for its whole bounded wait.
     */
    static final Duration AGENT_YIELD = Duration.ofMillis(1);

    /** Locks per server of the synthetic workload: many, so that random locks rarely conflict (as in the thesis). */
    static final int SYNTHETIC_LOCKS_PER_SERVER = 1 << 16;

    public LocksCase {
        Objects.requireNonNull(workload, "workload is null");
        Objects.requireNonNull(isolation, "isolation is null");
        Objects.requireNonNull(policy, "policy is null");
        if (!workload.equals(SYNTHETIC) && !workload.equals(TPCC)) {
            throw new IllegalArgumentException("workload must be synthetic or tpcc: " + workload);
        }
        if (nodes < 1 || serversPerNode < 1 || agentsPerNode < 1 || durationMs < 1 || warmupMs < 0 || pings < 0) {
            throw new IllegalArgumentException("bad locks case: " + this);
        }
        if (!(hotPercent >= 0 && hotPercent <= 100)) {
            throw new IllegalArgumentException("the hot-lock percentage must be in [0, 100]: " + hotPercent);
        }
        if (remotePercent < 0 || remotePercent > 100 || (remotePercent > 0 && nodes < 2)) {
            throw new IllegalArgumentException(
                    "remote locks need 2 or more nodes and a percentage in [0, 100]: " + remotePercent);
        }
    }

    /** The lock manager's layout for this case (TPC-C: one warehouse per agent, spread over the node's servers). */
    public Topology topology() {
        int locksPerServer = workload.equals(SYNTHETIC)
                ? SYNTHETIC_LOCKS_PER_SERVER
                : TpccWorkload.locksPerServer(Math.max(1, (agentsPerNode + serversPerNode - 1) / serversPerNode));
        return new Topology(nodes, serversPerNode, agentsPerNode, locksPerServer);
    }

    public LockManagerOptions options() {
        return LockManagerOptions.defaults()
                .withPolicy(policy)
                .withLockTimeout(Duration.ofMillis(lockTimeoutMs))
                .withProbeInterval(Duration.ofSeconds(2))
                .withBusyPolling(true)
                .withAgentYield(AGENT_YIELD);
    }

    /** A new workload instance (one per agent thread). */
    public Workload newWorkload() {
        return workload.equals(SYNTHETIC)
                ? new SyntheticWorkload(topology(), locksPerTransaction, remotePercent / 100, hotPercent / 100)
                : new TpccWorkload(topology(), isolation);
    }

    /** A short label for progress lines and tables. */
    public String label() {
        String what = workload.equals(SYNTHETIC)
                ? "synthetic " + locksPerTransaction + " locks, " + format(remotePercent) + "% remote"
                        + (hotPercent > 0 ? ", " + format(hotPercent) + "% hot" : "")
                : "TPC-C " + isolationName();
        return what + ", " + nodes + " node(s) x " + serversPerNode + " server(s) + " + agentsPerNode + " agent(s)";
    }

    String isolationName() {
        return isolation == TpccIsolation.SERIALIZABLE ? "serializable" : "read committed";
    }

    static String format(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    /** The same case with the nodes on one host ({@code value}) or not. */
    public LocksCase withSharedHost(boolean value) {
        return new LocksCase(
                nodes,
                serversPerNode,
                agentsPerNode,
                workload,
                remotePercent,
                locksPerTransaction,
                hotPercent,
                isolation,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                pings,
                value);
    }

    public LocksCase withNodes(int value) {
        return new LocksCase(
                value,
                serversPerNode,
                agentsPerNode,
                workload,
                remotePercent,
                locksPerTransaction,
                hotPercent,
                isolation,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                pings,
                sharedHost);
    }

    public LocksCase withRoles(int servers, int agents) {
        return new LocksCase(
                nodes,
                servers,
                agents,
                workload,
                remotePercent,
                locksPerTransaction,
                hotPercent,
                isolation,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                pings,
                sharedHost);
    }

    public LocksCase withSynthetic(double percent) {
        return withContention(percent, hotPercent);
    }

    /** The synthetic workload at {@code remote} % remote locks with {@code hot} % of its locks on the hot ones. */
    public LocksCase withContention(double remote, double hot) {
        return new LocksCase(
                nodes,
                serversPerNode,
                agentsPerNode,
                SYNTHETIC,
                remote,
                locksPerTransaction,
                hot,
                isolation,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                pings,
                sharedHost);
    }

    public LocksCase withTpcc(TpccIsolation level) {
        return new LocksCase(
                nodes,
                serversPerNode,
                agentsPerNode,
                TPCC,
                0,
                locksPerTransaction,
                hotPercent,
                level,
                policy,
                lockTimeoutMs,
                warmupMs,
                durationMs,
                pings,
                sharedHost);
    }

    JsonNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("nodes", nodes)
                .put("serversPerNode", serversPerNode)
                .put("agentsPerNode", agentsPerNode)
                .put("workload", workload)
                .put("remotePercent", remotePercent)
                .put("locksPerTransaction", locksPerTransaction)
                .put("hotPercent", hotPercent)
                .put("isolation", isolation.name())
                .put("policy", policy.name())
                .put("lockTimeoutMs", lockTimeoutMs)
                .put("warmupMs", warmupMs)
                .put("durationMs", durationMs)
                .put("pings", pings)
                .put("sharedHost", sharedHost);
        return json;
    }

    static LocksCase fromJson(JsonNode json) {
        return new LocksCase(
                json.path("nodes").asInt(),
                json.path("serversPerNode").asInt(),
                json.path("agentsPerNode").asInt(),
                json.path("workload").asText(),
                json.path("remotePercent").asDouble(),
                json.path("locksPerTransaction").asInt(),
                json.path("hotPercent").asDouble(),
                TpccIsolation.valueOf(json.path("isolation").asText()),
                DeadlockPolicy.valueOf(json.path("policy").asText()),
                json.path("lockTimeoutMs").asLong(),
                json.path("warmupMs").asLong(),
                json.path("durationMs").asLong(),
                json.path("pings").asInt(),
                json.path("sharedHost").asBoolean());
    }
}
