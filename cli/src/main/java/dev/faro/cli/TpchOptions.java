package dev.faro.cli;

import dev.faro.cluster.tpch.TpchSettings;
import dev.faro.engine.tpch.TpchQueries;
import dev.faro.shuffle.endpoint.EndpointDesign;
import java.lang.management.ManagementFactory;
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
                throw new IllegalArgumentException("'" + value + "' is not a query number; give numbers like 3,4,10"
                        + " or 'all'");
            }
            if (number < 1 || number > 22) {
                throw new IllegalArgumentException("TPC-H has queries 1 to 22, not " + number);
            }
            if (!TpchQueries.implemented().contains(number)) {
                throw new IllegalArgumentException("query " + number + " has no plan yet; implemented: "
                        + join(TpchQueries.implemented()));
            }
            queries.add(number);
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no queries given; give numbers like 3,4,10 or 'all'");
        }
        return new ArrayList<>(new java.util.TreeSet<>(queries));
    }

    /** {@code settings} with the exchanges of {@code design}: a design's paper name, or {@code tcp}. */
    static TpchSettings exchange(TpchSettings settings, String design) {
        if (design.strip().equalsIgnoreCase("tcp")) {
            return settings.withTcpSockets();
        }
        try {
            return settings.withDesign(EndpointDesign.parse(design));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " or tcp");
        }
    }

    /** A JVM heap size like {@code 4g}, {@code 512m} or {@code 1048576k}, in MiB. */
    static long heapMiB(String text) {
        java.util.regex.Matcher size = java.util.regex.Pattern.compile("(\\d{1,9})([kKmMgG])").matcher(text.strip());
        if (!size.matches()) {
            throw new IllegalArgumentException("--worker-heap takes a size like 512m or 4g, not '" + text + "'");
        }
        long value = Long.parseLong(size.group(1));
        long mib = switch (Character.toLowerCase(size.group(2).charAt(0))) {
            case 'k' -> value / 1024;
            case 'm' -> value;
            default -> value * 1024;
        };
        if (mib < 64) {
            throw new IllegalArgumentException("--worker-heap must be at least 64m, got " + text);
        }
        return mib;
    }

    static double scaleFactor(double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("the scale factor must be positive, got " + value);
        }
        return value;
    }

    /** Checks that {@code nodes} workers of {@code heapMiB} each fit this machine's memory (80 % of it). */
    static void checkFits(int nodes, long heapMiB) {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
        }
        if (nodes > MAX_LOCAL_NODES) {
            throw new IllegalArgumentException(nodes + " nodes is more than a local cluster runs (at most "
                    + MAX_LOCAL_NODES + ")");
        }
        long totalMiB = physicalMemoryMiB();
        long neededMiB = nodes * (heapMiB + 256); // heap plus the JVM's own memory
        if (neededMiB > totalMiB * 8 / 10) {
            throw new IllegalArgumentException(String.format(
                    "%d nodes with %d MiB of heap each need about %.1f GiB; this machine has %.1f GiB (use fewer"
                            + " nodes or a smaller --sf)", nodes, heapMiB, neededMiB / 1024.0, totalMiB / 1024.0));
        }
    }

    static long physicalMemoryMiB() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize() >> 20;
        }
        return 8L << 10;
    }

    static String join(Set<Integer> numbers) {
        return String.join(",", numbers.stream().map(String::valueOf).toList());
    }
}
