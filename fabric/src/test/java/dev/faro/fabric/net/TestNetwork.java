package dev.faro.fabric.net;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test's own small network: two network namespaces ({@code faro-it-<pid>-a} and {@code -b}), each a "host" with
 * one end of a veth pair ({@code 10.77.0.1/24} and {@code 10.77.0.2/24}); packet loss with nftables and a bandwidth
 * cap with a {@code tbf} qdisc inside a namespace; link down. Needs root and {@code ip}, {@code nft}, {@code tc}.
 *
 * <p>Names carry a fixed prefix and the test JVM's pid, so {@link #removeStale()} removes what a crashed run left
 * (its pid is gone) without touching a run that is still going (builds on a shared machine may overlap).
 * Addresses exist only inside the namespaces; the host's own network is not touched.
 */
final class TestNetwork implements AutoCloseable {

    static final String PREFIX = "faro-it-";
    /** veth names live in the host's namespace for a moment and must be short (15 characters at most). */
    static final String LINK_PREFIX = "fi";
    private static final long PID = ProcessHandle.current().pid();
    static final String HOST_A = PREFIX + PID + "-a";
    static final String HOST_B = PREFIX + PID + "-b";
    static final String LINK_A = LINK_PREFIX + PID + "a";
    static final String LINK_B = LINK_PREFIX + PID + "b";
    static final String ADDRESS_A = "10.77.0.1";
    static final String ADDRESS_B = "10.77.0.2";

    private TestNetwork() {}

    /**
     * Why namespaces cannot be created here, or null if they can: not root, a tool missing, or the kernel refusing.
     * Tries a probe namespace.
     */
    static String unavailableBecause() {
        try {
            String uid = run(List.of("id", "-u")).strip();
            if (!uid.equals("0")) {
                return "not running as root (uid " + uid + ")";
            }
        } catch (IOException e) {
            return "cannot run 'id -u': " + e.getMessage();
        }
        for (String tool : List.of("ip", "nft", "tc")) {
            if (!onPath(tool)) {
                return "'" + tool + "' is not installed (apt-get install iproute2 nftables)";
            }
        }
        String probe = PREFIX + PID + "-probe";
        try {
            run(List.of("ip", "netns", "add", probe));
            run(List.of("ip", "netns", "exec", probe, "nft", "list", "ruleset"));
        } catch (IOException e) {
            return "the kernel refuses network namespaces or nftables here: " + e.getMessage();
        } finally {
            runQuietly(List.of("ip", "netns", "del", probe));
        }
        return null;
    }

    private static boolean onPath(String tool) {
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(directory, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool));
    }

    /** Removes namespaces and links left by earlier runs whose JVM is gone (and by this one). */
    static void removeStale() throws IOException {
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            String name = line.strip().split(" ")[0];
            if (name.startsWith(PREFIX) && isStale(name.substring(PREFIX.length()))) {
                runQuietly(List.of("ip", "netns", "del", name));
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
            String[] fields = line.strip().split(":\\s+");
            if (fields.length > 1) {
                String name = fields[1].split("@")[0];
                if (name.startsWith(LINK_PREFIX) && name.length() > LINK_PREFIX.length()
                        && Character.isDigit(name.charAt(LINK_PREFIX.length()))
                        && isStale(name.substring(LINK_PREFIX.length()))) {
                    runQuietly(List.of("ip", "link", "del", name));
                }
            }
        }
    }

    /** Whether the run that named something {@code <pid><suffix>} is this one or dead. */
    private static boolean isStale(String pidAndSuffix) {
        int end = 0;
        while (end < pidAndSuffix.length() && Character.isDigit(pidAndSuffix.charAt(end))) {
            end++;
        }
        if (end == 0) {
            return true; // an older naming scheme: nobody owns it
        }
        long pid = Long.parseLong(pidAndSuffix.substring(0, end));
        return pid == PID || ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
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
        return List.of("ip", "netns", "exec", host);
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
        run(join(inside(host), List.of("tc", "qdisc", "add", "dev", link, "root", "tbf", "rate", rate, "burst",
                "32kbit", "latency", "50ms")));
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

    /** Runs a command (bounded); its output, or an IOException naming the command, its status and output. */
    static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within 30 s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + String.join(" ", command), e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (status " + process.exitValue() + "): "
                    + output.strip());
        }
        return output;
    }

    private static void runQuietly(List<String> command) {
        try {
            run(command);
        } catch (IOException ignored) {
            // cleaning up: what is gone is gone
        }
    }

    /** Deletes both namespaces (their veth ends go with them). */
    @Override
    public void close() {
        runQuietly(List.of("ip", "netns", "del", HOST_A));
        runQuietly(List.of("ip", "netns", "del", HOST_B));
        runQuietly(List.of("ip", "link", "del", LINK_A));
    }
}
