package dev.faro.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where an experiment ran, for its metadata: results from shared, noisy machines mean little without it.
 *
 * @param hostName the host's name, or {@code unknown}
 * @param cores processors available to the JVM
 * @param memoryBytes physical memory, or 0 when the JVM does not say
 * @param cpuModel the first {@code model name} of {@code /proc/cpuinfo}, or {@code unknown}
 * @param operatingSystem name, version and architecture
 * @param jdk the Java runtime's version, vendor and VM
 * @param loadAverage the system's one-minute load average when collected (-1 if unknown): a busy shared machine
 *     explains noisy numbers
 */
public record MachineInfo(
        String hostName,
        int cores,
        long memoryBytes,
        String cpuModel,
        String operatingSystem,
        String jdk,
        double loadAverage) {

    /** Describes this machine and JVM. */
    public static MachineInfo collect() {
        return new MachineInfo(
                readHostName(),
                Runtime.getRuntime().availableProcessors(),
                readMemoryBytes(),
                readCpuModel(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Runtime.version() + " (" + System.getProperty("java.vendor") + ", " + System.getProperty("java.vm.name")
                        + ")",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** The fields in declaration order, for JSON. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("hostName", hostName);
        map.put("cores", cores);
        map.put("memoryBytes", memoryBytes);
        map.put("cpuModel", cpuModel);
        map.put("operatingSystem", operatingSystem);
        map.put("jdk", jdk);
        map.put("loadAverage", loadAverage);
        return map;
    }

    private static String readHostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static long readMemoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
    }

    private static String readCpuModel() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuinfo)) {
            return "unknown";
        }
        try (Stream<String> lines = Files.lines(cpuinfo)) {
            return lines.filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException | java.io.UncheckedIOException e) {
            return "unknown";
        }
    }
}
