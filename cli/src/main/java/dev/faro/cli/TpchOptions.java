package dev.faro.cli;

import dev.faro.cluster.tpch.TpchSession;
import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.fabric.ucx.UcxFabricProvider;
import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.transport.ExchangeTransports;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parsing and checking of {@code faro tpch}'s values, each failure an {@link IllegalArgumentException} whose message
 * is the one line the user sees. Coordination code.
 */
final class TpchOptions {

    /** At most this many local workers, whatever the memory says. */
    static final int MAX_LOCAL_NODES = 64;

    /** TPC-H's largest scale factor. */
    static final int MAX_SCALE_FACTOR = 100_000;

    /** What a worker JVM uses besides its heap (metaspace, code, thread stacks, direct buffers). */
    private static final long JVM_OVERHEAD_MIB = 256;

    private TpchOptions() {}

    /** {@code 3,4,10}, {@code all} (every implemented query) or a mix; ascending, without duplicates. */
    static List<Integer> queries(List<String> values) {
        Set<Integer> queries = new LinkedHashSet<>();
        for (String value : values) {
            String text = value.strip().toLowerCase(Locale.ROOT);
            if (text.equals("all")) {
                queries.addAll(TpchQueries.implemented());
                continue;
            }
            int number;
            try {
                number = Integer.parseInt(text.startsWith("q") ? text.substring(1) : text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "'" + value + "' is not a query number; give numbers like 3,4,10" + " or 'all'");
            }
            if (number < 1 || number > 22) {
                throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + number);
            }
            if (!TpchQueries.implemented().contains(number)) {
                throw new IllegalArgumentException(
                        "query " + number + " has no plan yet; implemented: " + join(TpchQueries.implemented()));
            }
            queries.add(number);
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no queries given; give numbers like 3,4,10 or 'all'");
        }
        return new ArrayList<>(new java.util.TreeSet<>(queries));
    }

    /**
     * {@code settings} with the exchanges over {@code transport}: any name {@link ExchangeTransports#resolve} takes (a
     * design's paper name, {@code tcp}, or a transport another module registers); null for the default, MESQ/SR, or
     * MEMQ/SR on {@code ucx}, whose fabric has no UD queue pairs (a UD design is refused there).
     */
    static TpchSettings exchange(TpchSettings settings, String transport, String provider) {
        boolean rcOnly = provider.equals(UcxFabricProvider.NAME);
        if (transport == null) {
            return settings.withDesign(rcOnly ? EndpointDesign.MEMQ_SR : EndpointDesign.MESQ_SR);
        }
        TpchSettings chosen = settings.withTransport(transport);
        if (rcOnly && needsDatagrams(chosen.transport())) {
            throw new IllegalArgumentException(chosen.transport() + " needs UD queue pairs, which the ucx fabric does"
                    + " not offer; choose an RC design (SEMQ/SR, MEMQ/SR, SEMQ/RD, MEMQ/RD, SEMQ/WR, MEMQ/WR) or tcp");
        }
        return chosen;
    }

    /** Whether the transport {@code name} (canonical) is a design on UD queue pairs, which the ucx fabric lacks. */
    static boolean needsDatagrams(String name) {
        for (EndpointDesign design : EndpointDesign.values()) {
            if (design.paperName().equals(name)) {
                return design.implementation().needsDatagrams();
            }
        }
        return false;
    }

    /** A JVM heap size like {@code 4g}, {@code 512m} or {@code 1048576k}, in MiB. */
    static long heapMiB(String text) {
        java.util.regex.Matcher size =
                java.util.regex.Pattern.compile("(\\d{1,9})([kKmMgG])").matcher(text.strip());
        if (!size.matches()) {
            throw new IllegalArgumentException("--worker-heap takes a size like 512m or 4g, not '" + text + "'");
        }
        long value = Long.parseLong(size.group(1));
        return switch (Character.toLowerCase(size.group(2).charAt(0))) {
            case 'k' -> value / 1024;
            case 'm' -> value;
            default -> value * 1024;
        };
    }

    /** A scale factor: positive and at most TPC-H's largest. */
    static double scaleFactor(double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + value);
        }
        if (value > MAX_SCALE_FACTOR) {
            throw new IllegalArgumentException("the scale factor must be at most " + MAX_SCALE_FACTOR
                    + " (TPC-H's largest), got " + number(value));
        }
        return value;
    }

    /** Engine threads per node: between 1 and {@link TpchSettings#MAX_THREADS}. */
    static int threads(int value) {
        if (value < 1 || value > TpchSettings.MAX_THREADS) {
            throw new IllegalArgumentException(
                    "--threads must be between 1 and " + TpchSettings.MAX_THREADS + " per node, got " + value);
        }
        return value;
    }

    /**
     * Checks, before anything starts, that {@code nodes} workers fit this host: the node count, each worker's heap
     * against what SF {@code scaleFactor} needs at least ({@link TpchSession#minimumWorkerHeapMiB}), the data
     * against the memory available now, and the heaps together against the host's memory (80 % of it).
     */
    static void checkFits(int nodes, double scaleFactor, long heapMiB) {
        checkFits(nodes, scaleFactor, heapMiB, HostMemory.now());
    }

    static void checkFits(int nodes, double scaleFactor, long heapMiB, HostMemory memory) {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        if (nodes > MAX_LOCAL_NODES) {
            throw new IllegalArgumentException(
                    nodes + " nodes is more than a local cluster runs (at most " + MAX_LOCAL_NODES + ")");
        }
        long minimumMiB = TpchSession.minimumWorkerHeapMiB(nodes, scaleFactor);
        long neededMiB = nodes * (minimumMiB + JVM_OVERHEAD_MIB);
        if (neededMiB > memory.availableMiB()) {
            throw new IllegalArgumentException(String.format(
                    "SF %s on %d node%s needs about %s of memory; this"
                            + " machine has %s available (of %s; use a smaller --sf)",
                    number(scaleFactor),
                    nodes,
                    nodes == 1 ? "" : "s",
                    size(neededMiB),
                    size(memory.availableMiB()),
                    size(memory.totalMiB())));
        }
        if (heapMiB < minimumMiB) {
            throw new IllegalArgumentException(String.format(
                    "--worker-heap %dm is too small for SF %s on %d node%s:" + " each worker needs at least %dm",
                    heapMiB, number(scaleFactor), nodes, nodes == 1 ? "" : "s", minimumMiB));
        }
        long reservedMiB = nodes * (heapMiB + JVM_OVERHEAD_MIB);
        if (reservedMiB > memory.totalMiB() * 8 / 10) {
            throw new IllegalArgumentException(String.format(
                    "%d nodes with %d MiB of heap each need about %s;"
                            + " this machine has %s (use fewer nodes, a smaller --worker-heap or a smaller --sf)",
                    nodes, heapMiB, size(reservedMiB), size(memory.totalMiB())));
        }
    }

    /**
     * Refuses {@code option} (given when {@code value} is not null) with {@code --listen}, where it has no meaning;
     * the message names what to use instead.
     */
    static void refuseWithListen(String option, Object value, String instead) {
        if (value != null) {
            throw new IllegalArgumentException(
                    option + " is for workers started on this host; with --listen use " + instead);
        }
    }

    private static String size(long mib) {
        return mib >= 1 << 20
                ? String.format("%.1f TiB", mib / (double) (1 << 20))
                : String.format("%.1f GiB", mib / 1024.0);
    }

    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? String.valueOf((long) value)
                : String.valueOf(value);
    }

    static String join(Set<Integer> numbers) {
        return String.join(",", numbers.stream().map(String::valueOf).toList());
    }
}
