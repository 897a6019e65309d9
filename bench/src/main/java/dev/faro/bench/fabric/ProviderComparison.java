package dev.faro.bench.fabric;

import dev.faro.bench.ByteSizes;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The comparison of several providers measured in one {@code faro bench fabric} run: GB/s of every operation and size
 * each provider measured, side by side, with each provider's ratio to the first; and, when {@code ucx} is among them
 * and {@code ucx_perftest} is installed, UCX's own put bandwidth at the RC WRITE sizes as a reference row
 * ({@link UcxPerftestBaseline}).
 *
 * <p>Coordination code.
 */
public final class ProviderComparison {

    private static final int PERFTEST_ITERATIONS = 20_000;

    private ProviderComparison() {}

    /** The comparison as text; progress and perftest failures go to {@code progress}. */
    public static String table(
            List<String> providers,
            List<FabricBenchmarkReport> reports,
            FabricBenchmarkConfig config,
            PrintWriter progress) {
        return table(providers, reports, config, progress, false);
    }

    /**
     * As {@link #table(List, List, FabricBenchmarkConfig, PrintWriter)}; with {@code joinedWorkers} (workers that
     * joined from elsewhere) the {@code ucx_perftest} reference is skipped with a note, because it runs its server and
     * client as processes on this host, not between the workers.
     */
    public static String table(
            List<String> providers,
            List<FabricBenchmarkReport> reports,
            FabricBenchmarkConfig config,
            PrintWriter progress,
            boolean joinedWorkers) {
        StringBuilder text = new StringBuilder();
        String first = providers.getFirst();
        text.append(
                String.format(Locale.ROOT, "%nproviders side by side (GB/s, median of runs; ratio to %s):%n", first));
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-10s %8s", "operation", "size"));
        for (String provider : providers) {
            header.append(String.format(Locale.ROOT, " %10s", provider));
        }
        for (String provider : providers.subList(1, providers.size())) {
            header.append(String.format(Locale.ROOT, " %12s", provider + "/" + first));
        }
        text.append(header).append('\n');
        for (FabricOperation operation : config.operations()) {
            for (int size : config.sizesBytes()) {
                double[] values = new double[providers.size()];
                boolean any = false;
                for (int i = 0; i < providers.size(); i++) {
                    values[i] = find(reports.get(i), operation, size);
                    any |= !Double.isNaN(values[i]);
                }
                if (!any) {
                    continue;
                }
                StringBuilder row = new StringBuilder(
                        String.format(Locale.ROOT, "%-10s %8s", operation.label(), ByteSizes.format(size)));
                for (double value : values) {
                    row.append(
                            Double.isNaN(value)
                                    ? String.format(Locale.ROOT, " %10s", "-")
                                    : String.format(Locale.ROOT, " %10.2f", value));
                }
                for (int i = 1; i < values.length; i++) {
                    double ratio = values[i] / values[0];
                    row.append(
                            Double.isNaN(ratio)
                                    ? String.format(Locale.ROOT, " %12s", "-")
                                    : String.format(Locale.ROOT, " %12.2f", ratio));
                }
                text.append(row).append('\n');
            }
        }
        int ucx = providers.indexOf("ucx");
        if (ucx >= 0 && config.operations().contains(FabricOperation.WRITE) && joinedWorkers) {
            text.append("no UCX reference row: ucx_perftest runs a server and a client process on this host, not"
                    + " between workers that joined (--listen)\n");
        } else if (ucx >= 0 && config.operations().contains(FabricOperation.WRITE)) {
            Optional<Path> tool = UcxPerftestBaseline.find();
            if (tool.isEmpty()) {
                text.append("ucx_perftest not installed (Debian ucx-utils): no UCX reference row\n");
            } else {
                text.append(String.format(
                        Locale.ROOT,
                        "reference: ucx_perftest -t ucp_put_bw (%d puts, server and"
                                + " client process, one buffer that stays in cache, unlike the working set above;"
                                + " UCX_TLS=%s):%n",
                        PERFTEST_ITERATIONS,
                        System.getenv().getOrDefault("UCX_TLS", "UCX default")));
                for (int size : config.sizesBytes()) {
                    double faro = find(reports.get(ucx), FabricOperation.WRITE, size);
                    try {
                        double reference =
                                UcxPerftestBaseline.putGigabytesPerSecond(tool.get(), size, PERFTEST_ITERATIONS);
                        text.append(String.format(
                                Locale.ROOT,
                                "%-10s %8s %10.2f   ucx RC WRITE %.2f GB/s = %.2f of" + " it%n",
                                "ucp_put_bw",
                                ByteSizes.format(size),
                                reference,
                                faro,
                                faro / reference));
                    } catch (IOException e) {
                        progress.println("ucx_perftest at " + ByteSizes.format(size) + " failed: " + e.getMessage());
                    }
                }
            }
        }
        return text.toString();
    }

    private static double find(FabricBenchmarkReport report, FabricOperation operation, int size) {
        for (BandwidthResult result : report.results()) {
            if (result.operation() == operation && result.sizeBytes() == size) {
                return result.gigabytesPerSecond();
            }
        }
        return Double.NaN;
    }

    /** For tests: the providers a comma list names, in order, without duplicates. */
    static List<String> distinct(List<String> providers) {
        return new ArrayList<>(new java.util.LinkedHashSet<>(providers));
    }
}
