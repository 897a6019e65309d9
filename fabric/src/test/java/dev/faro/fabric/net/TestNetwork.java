package dev.faro.fabric.net;

import dev.faro.fabric.netns.NetworkNamespaces;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The test's own small network: two network namespaces ({@code faro-ns-<pid>-a} and {@code -b}), each a "host" with
 * one end of a veth pair ({@code 10.77.0.1/24} and {@code 10.77.0.2/24}); packet loss with nftables and a bandwidth
 * cap with a {@code tbf} qdisc inside a namespace; link down. Needs root and {@code ip}, {@code nft}, {@code tc}
 * ({@code Requirement.NETNS} and {@code NFT}).
 *
 * <p>Naming, probing, stale removal and commands come from {@link NetworkNamespaces} (shared with the cluster's
 * tests). Addresses exist only inside the namespaces; the host's own network is not touched.
 */
final class TestNetwork implements AutoCloseable {

    static final String HOST_A = NetworkNamespaces.namespace("a");
    static final String HOST_B = NetworkNamespaces.namespace("b");
    static final String LINK_A = NetworkNamespaces.link("a");
    static final String LINK_B = NetworkNamespaces.link("b");
    static final String ADDRESS_A = "10.77.0.1";
    static final String ADDRESS_B = "10.77.0.2";

    private TestNetwork() {}

    /** Removes namespaces and links left by earlier runs whose JVM is gone (and by this one). */
    static void removeStale() throws IOException {
        NetworkNamespaces.removeStale();
    }

    /** Two namespaces joined by a veth pair, links and loopback up. */
    static TestNetwork create() throws IOException {
        removeStale();
        TestNetwork network = new TestNetwork();
        try {
            run(List.of("ip", "netns", "add", HOST_A));
            run(List.of("ip", "netns", "add", HOST_B));
            run(List.of("ip", "link", "add", LINK_A, "type", "veth", "peer", "name", LINK_B));
            run(List.of("ip", "link", "set", LINK_A, "netns", HOST_A));
            run(List.of("ip", "link", "set", LINK_B, "netns", HOST_B));
            run(List.of("ip", "-n", HOST_A, "addr", "add", ADDRESS_A + "/24", "dev", LINK_A));
            run(List.of("ip", "-n", HOST_B, "addr", "add", ADDRESS_B + "/24", "dev", LINK_B));
            for (String[] host : new String[][] {{HOST_A, LINK_A}, {HOST_B, LINK_B}}) {
                run(List.of("ip", "-n", host[0], "link", "set", "lo", "up"));
                run(List.of("ip", "-n", host[0], "link", "set", host[1], "up"));
            }
            return network;
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** The command prefix that runs a process inside {@code host}'s namespace. */
    static List<String> inside(String host) {
        return NetworkNamespaces.inside(host);
    }

    /**
     * Drops {@code percent} % of the fabric's packets leaving {@code host}, chosen at random by nftables: UDP to the
     * ports, and TCP from or to them (both directions of every connection). Each rule counts what it dropped.
     */
    static void dropPackets(String host, int percent, String ports) throws IOException {
        List<String> nft = new ArrayList<>(inside(host));
        nft.add("nft");
        exec(nft, "add", "table", "inet", "faro");
        exec(nft, "add", "chain", "inet", "faro", "out", "{ type filter hook output priority 0; }");
        String random = "numgen random mod 100 < " + percent;
        exec(nft, "add", "rule", "inet", "faro", "out", "udp dport { " + ports + " } " + random + " counter drop");
        exec(nft, "add", "rule", "inet", "faro", "out", "tcp dport { " + ports + " } " + random + " counter drop");
        exec(nft, "add", "rule", "inet", "faro", "out", "tcp sport { " + ports + " } " + random + " counter drop");
    }

    /** Packets the nftables rules of {@code host} dropped, by protocol: {udp, tcp}. */
    static long[] droppedPackets(String host) throws IOException {
        String ruleset = run(join(inside(host), List.of("nft", "list", "table", "inet", "faro")));
        long udp = 0;
        long tcp = 0;
        for (String line : ruleset.split("\n")) {
            int at = line.indexOf("counter packets ");
            if (at < 0) {
                continue;
            }
            long packets = Long.parseLong(line.substring(at + 16).split(" ")[0]);
            if (line.strip().startsWith("udp")) {
                udp += packets;
            } else {
                tcp += packets;
            }
        }
        return new long[] {udp, tcp};
    }

    /** Caps what {@code link} in {@code host} sends with a token bucket (this kernel has no netem). */
    static void capBandwidth(String host, String link, String rate) throws IOException {
        run(join(
                inside(host),
                List.of(
                        "tc", "qdisc", "add", "dev", link, "root", "tbf", "rate", rate, "burst", "32kbit", "latency",
                        "50ms")));
    }

    /** Takes {@code link} in {@code host} down: packets stop, and nobody is told. */
    static void linkDown(String host, String link) throws IOException {
        run(List.of("ip", "-n", host, "link", "set", link, "down"));
    }

    private static void exec(List<String> prefix, String... arguments) throws IOException {
        run(join(prefix, List.of(arguments)));
    }

    private static List<String> join(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static String run(List<String> command) throws IOException {
        return NetworkNamespaces.run(command);
    }

    private static void runQuietly(List<String> command) {
        NetworkNamespaces.runQuietly(command);
    }

    /** Deletes both namespaces (their veth ends go with them). */
    @Override
    public void close() {
        runQuietly(List.of("ip", "netns", "del", HOST_A));
        runQuietly(List.of("ip", "netns", "del", HOST_B));
        runQuietly(List.of("ip", "link", "del", LINK_A));
    }
}
