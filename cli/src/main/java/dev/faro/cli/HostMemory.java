package dev.faro.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * This host's memory, for refusing runs that cannot fit before any worker starts: total and available (Linux's
 * {@code MemAvailable}: free memory plus what the kernel can reclaim) from {@code /proc/meminfo}, else the OS MXBean.
 * Coordination code; immutable.
 *
 * @param totalMiB all of the host's memory
 * @param availableMiB what new processes can use now without swapping
 */
record HostMemory(long totalMiB, long availableMiB) {

    private static final Path MEMINFO = Path.of("/proc/meminfo");

    /** The memory now. */
    static HostMemory now() {
        try {
            List<String> lines = Files.readAllLines(MEMINFO);
            long total = field(lines, "MemTotal:");
            long available = field(lines, "MemAvailable:");
            if (total > 0 && available >= 0) {
                return new HostMemory(total >> 10, available >> 10);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: ask the JVM
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return new HostMemory(os.getTotalMemorySize() >> 20, os.getFreeMemorySize() >> 20);
        }
        return new HostMemory(8L << 10, 8L << 10);
    }

    /** A {@code /proc/meminfo} field in KiB, or -1. */
    private static long field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name)) {
                String[] parts = line.substring(name.length()).strip().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        return -1;
    }
}
