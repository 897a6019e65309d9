package dev.faro.txn.node;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FaroException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One machine's part of the lock manager: its lock servers and transaction agents on one {@link Fabric} node, and the
 * start-up exchange that connects every agent of the system to every server (ETH19's collective window allocation,
 * here: each node publishes its queue-pair addresses and remote keys, and every node connects to all of them).
 *
 * <pre>{@code
 * LockManagerNode node = LockManagerNode.open(fabric, topology, nodeIndex, options);
 * byte[][] all = bootstrap.allGather("txn", node.addresses());   // any all-gather: the cluster runtime's, a test's
 * node.connect(all);
 * node.start();                                                   // the servers' polling threads
 * TransactionAgent agent = node.agents().get(0);                  // one thread per agent
 * }</pre>
 *
 * <p>Coordination code. Closing it stops the servers and closes every agent, server and their fabric resources (not
 * the fabric).
 */
public final class LockManagerNode implements AutoCloseable {

    private static final int FORMAT = 0x54584e31; // "TXN1"

    private final Fabric fabric;
    private final Topology topology;
    private final LockManagerOptions options;
    private final int node;
    private final List<LockServer> servers;
    private final List<TransactionAgent> agents;

    private LockManagerNode(
            Fabric fabric,
            Topology topology,
            LockManagerOptions options,
            int node,
            List<LockServer> servers,
            List<TransactionAgent> agents) {
        this.fabric = fabric;
        this.topology = topology;
        this.options = options;
        this.node = node;
        this.servers = List.copyOf(servers);
        this.agents = List.copyOf(agents);
    }

    /** Creates node {@code node}'s servers and agents (registered memory, queue pairs in INIT). */
    public static LockManagerNode open(Fabric fabric, Topology topology, int node, LockManagerOptions options) {
        Objects.requireNonNull(fabric, "fabric is null");
        Objects.requireNonNull(topology, "topology is null");
        Objects.requireNonNull(options, "options is null");
        if (node < 0 || node >= topology.nodes()) {
            throw new IllegalArgumentException("node " + node + " out of range [0, " + topology.nodes() + ")");
        }
        List<LockServer> servers = new ArrayList<>();
        List<TransactionAgent> agents = new ArrayList<>();
        try {
            for (int local = 0; local < topology.serversPerNode(); local++) {
                servers.add(new LockServer(fabric, topology, topology.server(node, local), options));
            }
            for (int local = 0; local < topology.agentsPerNode(); local++) {
                agents.add(new TransactionAgent(fabric, topology, topology.agent(node, local), options));
            }
        } catch (RuntimeException e) {
            servers.forEach(LockServer::close);
            agents.forEach(TransactionAgent::close);
            throw e;
        }
        return new LockManagerNode(fabric, topology, options, node, servers, agents);
    }

    public int node() {
        return node;
    }

    public Topology topology() {
        return topology;
    }

    public List<LockServer> servers() {
        return servers;
    }

    public List<TransactionAgent> agents() {
        return agents;
    }

    /** This node's contribution to the start-up exchange: the addresses and keys of its servers and agents. */
    public byte[] addresses() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeInt(node);
            for (LockServer server : servers) {
                writeBytes(out, server.mailboxRegion().remoteKey().toBytes());
                writeBytes(out, server.dataRegion().remoteKey().toBytes());
                for (int agent = 0; agent < topology.agents(); agent++) {
                    writeBytes(out, server.queuePair(agent).address().toBytes());
                }
            }
            for (TransactionAgent agent : agents) {
                writeBytes(out, agent.region().remoteKey().toBytes());
                for (int server = 0; server < topology.servers(); server++) {
                    writeBytes(out, agent.queuePair(server).address().toBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Connects every local server to every agent and every local agent to every server, from all nodes'
     * {@link #addresses()} indexed by node.
     *
     * @throws FaroException INVALID_ARGUMENT when the contributions do not fit this topology
     */
    public void connect(byte[][] all) {
        if (all.length != topology.nodes()) {
            throw new FaroException(
                    FaroException.Category.INVALID_ARGUMENT,
                    "lock manager start-up: " + all.length + " contributions for " + topology.nodes() + " nodes");
        }
        byte[][] serverMailbox = new byte[topology.servers()][];
        byte[][] serverData = new byte[topology.servers()][];
        byte[][][] serverQueuePairs = new byte[topology.servers()][topology.agents()][];
        byte[][] agentMailbox = new byte[topology.agents()][];
        byte[][][] agentQueuePairs = new byte[topology.agents()][topology.servers()][];
        for (int from = 0; from < all.length; from++) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[from]))) {
                if (in.readInt() != FORMAT || in.readInt() != from) {
                    throw new FaroException(
                            FaroException.Category.INVALID_ARGUMENT,
                            "lock manager start-up: node " + from + " sent a contribution of another format or node");
                }
                for (int local = 0; local < topology.serversPerNode(); local++) {
                    int server = topology.server(from, local);
                    serverMailbox[server] = readBytes(in);
                    serverData[server] = readBytes(in);
                    for (int agent = 0; agent < topology.agents(); agent++) {
                        serverQueuePairs[server][agent] = readBytes(in);
                    }
                }
                for (int local = 0; local < topology.agentsPerNode(); local++) {
                    int agent = topology.agent(from, local);
                    agentMailbox[agent] = readBytes(in);
                    for (int server = 0; server < topology.servers(); server++) {
                        agentQueuePairs[agent][server] = readBytes(in);
                    }
                }
            } catch (IOException e) {
                throw new FaroException(
                        FaroException.Category.INVALID_ARGUMENT,
                        "lock manager start-up: node " + from + "'s contribution is truncated (other topology?)");
            }
        }
        for (LockServer server : servers) {
            for (int agent = 0; agent < topology.agents(); agent++) {
                server.connect(
                        agent,
                        fabric.importAddress(agentQueuePairs[agent][server.index()]),
                        fabric.importRemoteKey(agentMailbox[agent]));
            }
        }
        for (TransactionAgent agent : agents) {
            for (int server = 0; server < topology.servers(); server++) {
                agent.connect(
                        server,
                        fabric.importAddress(serverQueuePairs[server][agent.index()]),
                        fabric.importRemoteKey(serverMailbox[server]),
                        fabric.importRemoteKey(serverData[server]));
            }
        }
    }

    /**
     * Pins the calling thread (an agent's) to the CPUs of this node's {@link LockManagerOptions#cpus()}, where its
     * servers' threads run; nothing when the options name none.
     *
     * @return whether the thread is now pinned
     */
    public boolean pinToCpus() {
        return CpuAffinity.pin(options.cpus());
    }

    /** Starts the servers' polling threads (pinned to the options' CPUs, if any). */
    public void start() {
        servers.forEach(LockServer::start);
    }

    /**
     * Throws when one of this node's lock servers' threads failed (the agents it noticed then fail with "lock server N
     * failed"; this names the cause).
     *
     * @throws IllegalStateException one line: the server and its failure
     */
    public void throwIfServerFailed() {
        for (LockServer server : servers) {
            Throwable failure = server.failure();
            if (failure != null) {
                throw new IllegalStateException(
                        "lock server " + server.index() + " (node " + node + ") failed: " + failure, failure);
            }
        }
    }

    /** Stops the servers' threads without closing anything (their tables may then be inspected). */
    public void stopServers() {
        servers.forEach(LockServer::stop);
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeShort(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readUnsignedShort()];
        in.readFully(bytes);
        return bytes;
    }

    /** Closes the agents, then the servers (stopping their threads). Never throws; idempotent. */
    @Override
    public void close() {
        for (TransactionAgent agent : agents) {
            try {
                agent.close();
            } catch (RuntimeException e) {
                // closing the rest matters more
            }
        }
        for (LockServer server : servers) {
            try {
                server.close();
            } catch (RuntimeException e) {
                // closing the rest matters more
            }
        }
    }
}
