package dev.faro.bench.shuffle;

import dev.faro.shuffle.baseline.TcpShuffleConfig;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.EndpointSharing;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * One shuffle for the worker processes to run: the design, who sends to whom, how much, and the endpoint sizing.
 * Immutable and validated; travels to the workers as one line of {@code key=value} words ({@link #encode()}).
 *
 * @param design the endpoint design
 * @param pattern a one-word name of the transmission groups, for labels ({@code repartition}, {@code multicast},
 *     {@code broadcast}, or a test's own name)
 * @param groups the transmission groups; their node count is the number of workers that take part
 * @param threads SHUFFLE threads and RECEIVE threads per node
 * @param tuplesPerThread rows of each sending thread's table (16-byte tuples)
 * @param scans how many times each thread sends its table (TODS19 §7.1 scans R ten times)
 * @param silentNodes nodes that send no tuples (only their end of stream); they still receive
 * @param bufferBytes bytes of one message buffer, header included
 * @param buffersPerPeer the fixed queue depth per peer
 * @param stallTimeout how long any wait of the endpoints may make no progress before the shuffle fails
 * @param tuning transport, credit frequency, completion mode, buffer policy and receive work ({@link CaseTuning})
 */
public record ShuffleCase(
        EndpointDesign design,
        String pattern,
        TransmissionGroups groups,
        int threads,
        int tuplesPerThread,
        int scans,
        Set<Integer> silentNodes,
        int bufferBytes,
        int buffersPerPeer,
        Duration stallTimeout,
        CaseTuning tuning) {

    /** The correctness matrix's buffers: small, so that every case cycles through many of them. */
    public static final int SMALL_BUFFER_BYTES = 1024;

    public static final int SMALL_BUFFERS_PER_PEER = 4;
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(20);

    public ShuffleCase {
        Objects.requireNonNull(design, "design is null");
        Objects.requireNonNull(pattern, "pattern is null");
        Objects.requireNonNull(groups, "groups is null");
        Objects.requireNonNull(stallTimeout, "stallTimeout is null");
        Objects.requireNonNull(tuning, "tuning is null");
        silentNodes = Set.copyOf(new TreeSet<>(silentNodes));
        check(
                !pattern.isEmpty() && pattern.chars().noneMatch(c -> Character.isWhitespace(c) || c == '='),
                "pattern must be one word without '=': '" + pattern + "'");
        check(groups.nodes() <= ShuffleTuples.MAX_NODES, "too many nodes: " + groups.nodes());
        check(
                threads >= 1 && threads <= ShuffleTuples.MAX_THREADS,
                "threads must be in [1, " + ShuffleTuples.MAX_THREADS + "]: " + threads);
        check(tuplesPerThread >= 0, "tuplesPerThread must not be negative: " + tuplesPerThread);
        check(scans >= 1, "scans must be at least 1: " + scans);
        for (int node : silentNodes) {
            check(node >= 0 && node < groups.nodes(), "silent node out of range: " + node);
        }
        check(buffersPerPeer >= 1, "buffersPerPeer must be positive: " + buffersPerPeer);
        check(bufferBytes > 64 + ShuffleTuples.TUPLE_BYTES, "bufferBytes too small for a tuple: " + bufferBytes);
        check(stallTimeout.toMillis() >= 1, "stallTimeout must be at least 1 ms: " + stallTimeout);
        check(tuning.slowNode() < groups.nodes(), "slow node out of range: " + tuning.slowNode());
        // the shuffle layer's checks
        endpointConfig(design, threads, bufferBytes, buffersPerPeer, stallTimeout, tuning);
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * A case of the correctness matrix: {@code pattern} over {@code nodes} nodes, every node sending {@code tuples}
     * per thread once, through {@link #SMALL_BUFFER_BYTES} buffers, {@link #SMALL_BUFFERS_PER_PEER} per peer.
     */
    public static ShuffleCase of(
            EndpointDesign design, ShufflePattern pattern, int nodes, int threads, int tuplesPerThread) {
        return new ShuffleCase(
                design,
                pattern.label(),
                pattern.groups(nodes),
                threads,
                tuplesPerThread,
                1,
                Set.of(),
                SMALL_BUFFER_BYTES,
                SMALL_BUFFERS_PER_PEER,
                DEFAULT_STALL_TIMEOUT,
                CaseTuning.DEFAULT);
    }

    public ShuffleCase withGroups(String newPattern, TransmissionGroups newGroups) {
        return new ShuffleCase(
                design,
                newPattern,
                newGroups,
                threads,
                tuplesPerThread,
                scans,
                silentNodes,
                bufferBytes,
                buffersPerPeer,
                stallTimeout,
                tuning);
    }

    public ShuffleCase withScans(int newScans) {
        return new ShuffleCase(
                design,
                pattern,
                groups,
                threads,
                tuplesPerThread,
                newScans,
                silentNodes,
                bufferBytes,
                buffersPerPeer,
                stallTimeout,
                tuning);
    }

    public ShuffleCase withSilentNodes(Set<Integer> nodes) {
        return new ShuffleCase(
                design,
                pattern,
                groups,
                threads,
                tuplesPerThread,
                scans,
                nodes,
                bufferBytes,
                buffersPerPeer,
                stallTimeout,
                tuning);
    }

    public ShuffleCase withBuffers(int newBufferBytes, int newBuffersPerPeer) {
        return new ShuffleCase(
                design,
                pattern,
                groups,
                threads,
                tuplesPerThread,
                scans,
                silentNodes,
                newBufferBytes,
                newBuffersPerPeer,
                stallTimeout,
                tuning);
    }

    public ShuffleCase withTuning(CaseTuning newTuning) {
        return new ShuffleCase(
                design,
                pattern,
                groups,
                threads,
                tuplesPerThread,
                scans,
                silentNodes,
                bufferBytes,
                buffersPerPeer,
                stallTimeout,
                newTuning);
    }

    /** The TCP socket baseline in place of the design, with its 128 KB messages. */
    public ShuffleCase asTcpBaseline() {
        return withTuning(tuning.withTransport(CaseTuning.Transport.TCP))
                .withBuffers(TcpShuffleConfig.DEFAULT_MESSAGE_BYTES, buffersPerPeer);
    }

    /** Whether the TCP socket baseline carries this case. */
    public boolean isTcp() {
        return tuning.transport() == CaseTuning.Transport.TCP;
    }

    /** The TCP baseline's configuration: one endpoint per thread, the case's buffer size as message size. */
    public TcpShuffleConfig tcpConfig() {
        return new TcpShuffleConfig(threads, threads, bufferBytes, stallTimeout);
    }

    /** The paper's buffers for the design (64 KiB for RC, 4 KiB for UD, 16 per peer). */
    public ShuffleCase withDefaultBuffers() {
        EndpointConfig defaults = EndpointConfig.defaults(design, threads);
        return withBuffers(defaults.bufferBytes(), defaults.buffersPerPeer());
    }

    public ShuffleCase withStallTimeout(Duration timeout) {
        return new ShuffleCase(
                design,
                pattern,
                groups,
                threads,
                tuplesPerThread,
                scans,
                silentNodes,
                bufferBytes,
                buffersPerPeer,
                timeout,
                tuning);
    }

    /** Nodes (workers) that take part: the first {@code nodes()} workers of the cluster. */
    public int nodes() {
        return groups.nodes();
    }

    /** Whether {@code node} sends tuples. */
    public boolean sends(int node) {
        return !silentNodes.contains(node);
    }

    /** Tuples node {@code node} sends in all (every thread, every scan). */
    public long tuplesSentBy(int node) {
        return sends(node) ? (long) threads * tuplesPerThread * scans : 0;
    }

    /** The endpoint configuration every node opens this case with. */
    public EndpointConfig endpointConfig() {
        return endpointConfig(design, threads, bufferBytes, buffersPerPeer, stallTimeout, tuning);
    }

    private static EndpointConfig endpointConfig(
            EndpointDesign design,
            int threads,
            int bufferBytes,
            int buffersPerPeer,
            Duration stallTimeout,
            CaseTuning tuning) {
        EndpointConfig config = EndpointConfig.defaults(design, threads)
                .withBufferBytes(bufferBytes)
                .withBuffersPerPeer(buffersPerPeer)
                .withStallTimeout(stallTimeout);
        return tuning.apply(config, buffersPerPeer);
    }

    /**
     * Whether the design promises that each sending thread's tuples arrive in order at each receiving thread, so
     * that the receivers can check it: RC designs (UD may reorder), disjoint groups (with overlapping multicast
     * groups a destination is fed from several output buffers of one thread, so only per-buffer order holds), one
     * scan, and each receiving thread fed by one sending thread per node (one thread, or ME where endpoint {@code i}
     * talks only to endpoint {@code i}).
     */
    public boolean ordered() {
        boolean disjoint = IntStream.range(0, groups.groupCount())
                        .map(g -> groups.members(g).length)
                        .sum()
                == IntStream.range(0, groups.groupCount())
                        .flatMap(g -> IntStream.of(groups.members(g)))
                        .distinct()
                        .count();
        return (isTcp() || !design.implementation().needsDatagrams())
                && disjoint
                && scans == 1
                && (threads == 1 || isTcp() || design.sharing() == EndpointSharing.PER_THREAD);
    }

    /** A short description for logs and test names, e.g. {@code MEMQ/SR repartition 3 nodes x 2 threads}. */
    public String label() {
        return contender() + " " + pattern + " " + nodes() + " nodes x " + threads + " thread"
                + (threads == 1 ? "" : "s");
    }

    /** What carries the tuples: the design's paper name, or {@code TCP}. */
    public String contender() {
        return isTcp() ? "TCP" : design.paperName();
    }

    /**
     * What determines the tuples every node must receive (groups, threads, rows, scans, silent nodes), but not how
     * they travel: cases with equal keys have equal {@link ShuffleTuples#expected} results.
     */
    public String dataKey() {
        String[] words = encode().split(" ");
        return String.join(" ", words[2], words[3], words[4], words[5], words[6], words[7]);
    }

    /** The case as space-separated {@code key=value} words (groups as {@code 0,1;1,2;0}). */
    public String encode() {
        List<String> groupTexts = new ArrayList<>();
        for (int g = 0; g < groups.groupCount(); g++) {
            groupTexts.add(
                    Arrays.stream(groups.members(g)).mapToObj(Integer::toString).collect(Collectors.joining(",")));
        }
        return String.join(
                " ",
                "design=" + design.name(),
                "pattern=" + pattern,
                "nodes=" + nodes(),
                "groups=" + String.join(";", groupTexts),
                "threads=" + threads,
                "tuples=" + tuplesPerThread,
                "scans=" + scans,
                "silent="
                        + (silentNodes.isEmpty()
                                ? "-"
                                : new TreeSet<>(silentNodes)
                                        .stream().map(Object::toString).collect(Collectors.joining(","))),
                "bufferBytes=" + bufferBytes,
                "buffersPerPeer=" + buffersPerPeer,
                "stallMillis=" + stallTimeout.toMillis(),
                tuning.encode());
    }

    /**
     * Parses {@link #encode()}'s words.
     *
     * @throws IllegalArgumentException naming the missing or malformed word
     */
    public static ShuffleCase decode(List<String> words) {
        Map<String, String> fields = new HashMap<>();
        for (String word : words) {
            int equals = word.indexOf('=');
            check(equals > 0, "expected key=value, got '" + word + "'");
            fields.put(word.substring(0, equals), word.substring(equals + 1));
        }
        int nodes = integer(fields, "nodes");
        List<int[]> groupList = new ArrayList<>();
        for (String group : field(fields, "groups").split(";")) {
            groupList.add(
                    Arrays.stream(group.split(",")).mapToInt(Integer::parseInt).toArray());
        }
        String silent = field(fields, "silent");
        Set<Integer> silentNodes = silent.equals("-")
                ? Set.of()
                : Arrays.stream(silent.split(",")).map(Integer::valueOf).collect(Collectors.toSet());
        return new ShuffleCase(
                EndpointDesign.parse(field(fields, "design")),
                field(fields, "pattern"),
                TransmissionGroups.of(nodes, groupList),
                integer(fields, "threads"),
                integer(fields, "tuples"),
                integer(fields, "scans"),
                silentNodes,
                integer(fields, "bufferBytes"),
                integer(fields, "buffersPerPeer"),
                Duration.ofMillis(Long.parseLong(field(fields, "stallMillis"))),
                CaseTuning.decode(fields));
    }

    private static String field(Map<String, String> fields, String key) {
        String value = fields.get(key);
        check(value != null, "missing " + key + "=");
        return value;
    }

    private static int integer(Map<String, String> fields, String key) {
        try {
            return Integer.parseInt(field(fields, key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: '" + fields.get(key) + "'");
        }
    }
}
