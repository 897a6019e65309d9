package dev.faro.fabric.netns;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Network namespaces as "hosts" on one machine, shared by the multi-host tests of the fabric, the cluster and the CLI
 * and by {@code faro bench hyper --experiments v4-netns}. Two shapes:
 * <ul>
 *   <li>the static helpers, for a test that wires its own namespaces ({@code NetNamespacesIT}'s veth pair): probe,
 *       naming, stale removal, commands inside a namespace;</li>
 *   <li>{@link #bridged(int)}: a small LAN of {@code n} hosts and the test's own (root) namespace on one bridge, each
 *       with a private address, so a coordinator in the test JVM and workers in the namespaces reach each other.</li>
 * </ul>
 * Needs root and {@code ip} ({@code tc} for {@link #capLink}): a test that uses it says {@code
 * @Requires(Requirement.NETNS)}, a benchmark asks {@link #unavailableBecause} first. Coordination code.
 *
 * <p>Names carry a fixed prefix and the test JVM's pid, so {@link #removeStale()} removes what a crashed run left
 * (its pid is gone) without touching a run that is still going (builds on a shared machine may overlap).
 *
 * <p>The bridge lives in a namespace of its own, so the host's firewall never sees the hosts' traffic. The root
 * namespace gets one veth end with an address in a /24 chosen from the pid ({@code 10.100-199.x.0/24}) that no
 * interface of this machine uses; its route goes away with the namespaces.
 */
public final class NetworkNamespaces implements AutoCloseable {

    public static final String PREFIX = "faro-ns-";

    /** The prefix older builds named their namespaces with (same {@code <pid>-<suffix>} scheme). */
    private static final String OLD_PREFIX = "faro-it-";

    /** veth names live in the root namespace for a moment and must be short (15 characters at most). */
    public static final String LINK_PREFIX = "fi";

    private static final long PID = ProcessHandle.current().pid();
    private static final String ROOT_HOST = "254";

    private final String subnet;
    private final List<String> hosts = new ArrayList<>();
    private final String switchHost;

    private NetworkNamespaces(String subnet) {
        this.subnet = subnet;
        this.switchHost = namespace("sw");
    }

    // ======================================================================================== static helpers

    /** This run's name for namespace {@code suffix}: {@code faro-ns-<pid>-<suffix>}. */
    public static String namespace(String suffix) {
        return PREFIX + PID + "-" + suffix;
    }

    /** This run's name for link {@code suffix}: {@code fi<pid><suffix>} (keep the suffix within 4 characters). */
    public static String link(String suffix) {
        return LINK_PREFIX + PID + suffix;
    }

    /**
     * Why namespaces cannot be created here, or null if they can: not root, a tool missing ({@code ip} always, and
     * {@code tools}), or the kernel refusing. Tries a probe namespace. Tests ask through the fabric's test {@code
     * Requirement}s {@code NETNS} and {@code NFT}, which probe once and skip or fail.
     */
    public static String unavailableBecause(List<String> tools) {
        try {
            String uid = run(List.of("id", "-u")).strip();
            if (!uid.equals("0")) {
                return "not running as root (uid " + uid + ")";
            }
        } catch (IOException e) {
            return "cannot run 'id -u': " + e.getMessage();
        }
        List<String> needed = new ArrayList<>(List.of("ip"));
        needed.addAll(tools);
        for (String tool : needed) {
            if (!onPath(tool)) {
                return "'" + tool + "' is not installed: apt-get install "
                        + (tool.equals("nft") ? "nftables" : "iproute2");
            }
        }
        String probe = namespace("probe");
        try {
            run(List.of("ip", "netns", "add", probe));
            run(List.of("ip", "-n", probe, "link", "set", "lo", "up"));
            if (tools.contains("nft")) {
                run(List.of("ip", "netns", "exec", probe, "nft", "list", "ruleset"));
            }
        } catch (IOException e) {
            return "the kernel refuses network namespaces or nftables here: " + e.getMessage();
        } finally {
            runQuietly(List.of("ip", "netns", "del", probe));
        }
        return null;
    }

    /** Whether {@code program} is an executable on the {@code PATH} (or in {@code /usr/sbin}, {@code /sbin}). */
    public static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        for (String directory : path.split(":")) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", program)) || Files.isExecutable(Path.of("/sbin", program));
    }

    /**
     * Removes namespaces and links left by earlier runs whose JVM is gone (and by this one), including namespaces named
     * with the prefix of older builds ({@code faro-it-}).
     */
    public static void removeStale() throws IOException {
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            String name = line.strip().split(" ")[0];
            for (String prefix : List.of(PREFIX, OLD_PREFIX)) {
                if (name.startsWith(prefix) && isStale(name.substring(prefix.length()))) {
                    runQuietly(List.of("ip", "netns", "del", name));
                }
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
            String[] fields = line.strip().split(":\\s+");
            if (fields.length > 1) {
                String name = fields[1].split("@")[0];
                if (name.startsWith(LINK_PREFIX)
                        && name.length() > LINK_PREFIX.length()
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
        return pid == PID
                || ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
    }

    /** The command prefix that runs a process inside namespace {@code host}. */
    public static List<String> inside(String host) {
        return List.of("ip", "netns", "exec", host);
    }

    /** Runs a command (bounded); its output, or an IOException naming the command, its status and output. */
    public static String run(List<String> command) throws IOException {
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
            throw new IOException(
                    String.join(" ", command) + " failed (status " + process.exitValue() + "): " + output.strip());
        }
        return output;
    }

    /** Runs a command and ignores a failure (cleaning up: what is gone is gone). */
    public static void runQuietly(List<String> command) {
        try {
            run(command);
        } catch (IOException ignored) {
            // cleaning up: what is gone is gone
        }
    }

    // ======================================================================================== a bridged LAN

    /**
     * {@code count} hosts ({@code faro-ns-<pid>-h0} ...) with addresses {@code <subnet>.1} ... and the root namespace
     * with {@link #rootAddress()}, all on one bridge; links and loopbacks up. Removes stale namespaces first.
     */
    public static NetworkNamespaces bridged(int count) throws IOException {
        if (count < 1 || count > 9) {
            throw new IllegalArgumentException("1 to 9 hosts: count=" + count);
        }
        removeStale();
        NetworkNamespaces network = new NetworkNamespaces(freeSubnet());
        try {
            network.build(count);
            return network;
        } catch (IOException | RuntimeException e) {
            network.close();
            throw e;
        }
    }

    /** A /24 ({@code 10.a.b}) derived from the pid that no interface here uses yet. */
    private static String freeSubnet() throws IOException {
        String addresses = run(List.of("ip", "-o", "-4", "addr", "show"));
        for (int attempt = 0; attempt < 100; attempt++) {
            long seed = PID + 7919L * attempt;
            String subnet = "10." + (100 + (seed >> 8) % 100) + "." + (seed & 0xff);
            if (!addresses.contains(" " + subnet + ".")) {
                return subnet;
            }
        }
        throw new IOException("no free 10.x.y.0/24 subnet for the test network");
    }

    private void build(int count) throws IOException {
        run(List.of("ip", "netns", "add", switchHost));
        run(List.of("ip", "-n", switchHost, "link", "add", "br0", "type", "bridge"));
        run(List.of("ip", "-n", switchHost, "link", "set", "br0", "up"));
        String rootLink = link("r");
        run(List.of("ip", "link", "add", rootLink, "type", "veth", "peer", "name", link("rs")));
        plugIntoSwitch(link("rs"));
        run(List.of("ip", "addr", "add", rootAddress() + "/24", "dev", rootLink));
        run(List.of("ip", "link", "set", rootLink, "up"));
        for (int i = 0; i < count; i++) {
            String host = namespace("h" + i);
            run(List.of("ip", "netns", "add", host));
            hosts.add(host);
            String hostLink = link("h" + i);
            run(List.of("ip", "link", "add", hostLink, "type", "veth", "peer", "name", link("s" + i)));
            plugIntoSwitch(link("s" + i));
            run(List.of("ip", "link", "set", hostLink, "netns", host));
            run(List.of("ip", "-n", host, "addr", "add", address(i) + "/24", "dev", hostLink));
            run(List.of("ip", "-n", host, "link", "set", "lo", "up"));
            run(List.of("ip", "-n", host, "link", "set", hostLink, "up"));
        }
    }

    private void plugIntoSwitch(String link) throws IOException {
        run(List.of("ip", "link", "set", link, "netns", switchHost));
        run(List.of("ip", "-n", switchHost, "link", "set", link, "master", "br0"));
        run(List.of("ip", "-n", switchHost, "link", "set", link, "up"));
    }

    /**
     * The kernel's datagram counters inside namespace {@code host} ({@code /proc/net/snmp} read there): UDP
     * {@code InDatagrams, OutDatagrams, InErrors, RcvbufErrors, SndbufErrors} and IP reassembly {@code ReasmReqds,
     * ReasmOKs, ReasmFails}, as {@code name=value} pairs, for a test to print when datagrams went missing. Summed over
     * the hosts of one bridge, {@code InDatagrams} equal to {@code OutDatagrams} means the kernels dropped none.
     */
    public static String datagramCounters(String host) {
        List<String> command = new ArrayList<>(inside(host));
        command.addAll(List.of("cat", "/proc/net/snmp"));
        String snmp;
        try {
            snmp = run(command);
        } catch (IOException e) {
            return "(counters unavailable: " + e.getMessage() + ")";
        }
        StringBuilder out = new StringBuilder();
        appendCounters(
                out, snmp, "Udp:", List.of("InDatagrams", "OutDatagrams", "InErrors", "RcvbufErrors", "SndbufErrors"));
        appendCounters(out, snmp, "Ip:", List.of("ReasmReqds", "ReasmOKs", "ReasmFails", "ReasmTimeout"));
        return out.toString().strip();
    }

    /** {@code /proc/net/snmp} has a header line and a value line per protocol. */
    private static void appendCounters(StringBuilder out, String snmp, String protocol, List<String> names) {
        List<String[]> lines = snmp.lines()
                .filter(line -> line.startsWith(protocol))
                .map(line -> line.substring(protocol.length()).strip().split("\\s+"))
                .toList();
        if (lines.size() < 2) {
            return;
        }
        List<String> header = List.of(lines.get(0));
        for (String name : names) {
            int at = header.indexOf(name);
            if (at >= 0 && at < lines.get(1).length) {
                out.append(name).append('=').append(lines.get(1)[at]).append(' ');
            }
        }
    }

    /**
     * Caps host {@code index}'s link in both directions at {@code rateMbit} megabits per second, as a switch port
     * of that speed would: a {@code tc tbf} on the host's veth end (what it sends) and one on the switch's end (what
     * the switch forwards to it), each queueing at most {@code queueBytes} before it drops, or the tbf's burst when
     * that is larger (max(32 KiB, a 250th of a second at the rate)). Replaces an earlier cap.
     */
    public void capLink(int index, long rateMbit, int queueBytes) throws IOException {
        if (rateMbit < 1 || queueBytes < 1500) {
            throw new IllegalArgumentException("rateMbit must be positive and queueBytes at least a frame: rateMbit="
                    + rateMbit + " queueBytes=" + queueBytes);
        }
        long bytesPerSecond = rateMbit * 1_000_000 / 8;
        long burst = Math.max(32 * 1024, bytesPerSecond / 250); // at least a jiffy's worth (HZ up to 250 here)
        for (String[] end : ends(index)) {
            List<String> command = new ArrayList<>(inside(end[0]));
            command.addAll(List.of(
                    "tc",
                    "qdisc",
                    "replace",
                    "dev",
                    end[1],
                    "root",
                    "tbf",
                    "rate",
                    rateMbit + "mbit",
                    "burst",
                    Long.toString(burst),
                    "limit",
                    Long.toString(Math.max(queueBytes, burst))));
            run(command);
        }
    }

    /** Removes host {@code index}'s caps ({@link #capLink}); a link without one stays as it is. */
    public void uncapLink(int index) {
        for (String[] end : ends(index)) {
            List<String> command = new ArrayList<>(inside(end[0]));
            command.addAll(List.of("tc", "qdisc", "del", "dev", end[1], "root"));
            runQuietly(command);
        }
    }

    /** Host {@code index}'s two veth ends: {namespace, link} of the host's and of the switch's. */
    private List<String[]> ends(int index) {
        return List.of(new String[] {host(index), link("h" + index)}, new String[] {switchHost, link("s" + index)});
    }

    /** The namespace name of host {@code index}. */
    public String host(int index) {
        return hosts.get(index);
    }

    public int hostCount() {
        return hosts.size();
    }

    /** The address of host {@code index}: {@code <subnet>.<index + 1>}. */
    public String address(int index) {
        return subnet + "." + (index + 1);
    }

    /** The test's own (root) namespace's address on the bridge: listen here for the hosts. */
    public String rootAddress() {
        return subnet + "." + ROOT_HOST;
    }

    /**
     * Deletes the hosts and the switch (their veth ends, and so the root's, go with them). Kill the processes inside
     * first: a namespace lives on while a process is in it.
     */
    @Override
    public void close() {
        for (String host : hosts) {
            runQuietly(List.of("ip", "netns", "del", host));
        }
        runQuietly(List.of("ip", "netns", "del", switchHost));
        runQuietly(List.of("ip", "link", "del", link("r")));
    }
}
