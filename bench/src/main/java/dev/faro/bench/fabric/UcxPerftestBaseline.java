package dev.faro.bench.fabric;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The UCX project's own put bandwidth, {@code ucx_perftest -t ucp_put_bw}, as the reference beside the {@code ucx}
 * provider's RC WRITE: a server and a client process on loopback, with the same UCX settings (the environment's
 * {@code UCX_TLS} and friends reach both), so UCX picks the transports it picks between the two benchmark workers
 * (on one host: sysv/posix shared memory for puts). It puts from one buffer of the message size, which stays in the
 * cache, while the benchmark cycles a working set through memory: above the cache size it is a ceiling, not a
 * like-for-like figure. Used only when {@code ucx_perftest} is installed (Debian {@code ucx-utils}).
 *
 * <p>Coordination code; each measurement starts two processes.
 */
public final class UcxPerftestBaseline {

    private static final int PORT = 13_579;

    private UcxPerftestBaseline() {}

    /** The installed {@code ucx_perftest}, if any (searched on PATH). */
    public static Optional<Path> find() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String directory : path.split(":")) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, "ucx_perftest");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The overall put bandwidth in GB/s (10^9 bytes) of {@code iterations} puts of {@code sizeBytes} from a client
     * to a server on 127.0.0.1.
     *
     * @throws IOException if the tool fails or prints no result
     */
    public static double putGigabytesPerSecond(Path tool, int sizeBytes, int iterations) throws IOException {
        ProcessBuilder server = new ProcessBuilder(
                        tool.toString(),
                        "-t",
                        "ucp_put_bw",
                        "-s",
                        Integer.toString(sizeBytes),
                        "-n",
                        Integer.toString(iterations),
                        "-p",
                        Integer.toString(PORT))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process serverProcess = server.start();
        try {
            for (int attempt = 0; attempt < 50; attempt++) {
                Process client = new ProcessBuilder(
                                tool.toString(),
                                "127.0.0.1",
                                "-t",
                                "ucp_put_bw",
                                "-s",
                                Integer.toString(sizeBytes),
                                "-n",
                                Integer.toString(iterations),
                                "-p",
                                Integer.toString(PORT))
                        .redirectErrorStream(true)
                        .start();
                String finalLine = null;
                try (BufferedReader reader =
                        new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        if (line.startsWith("Final:")) {
                            finalLine = line;
                        }
                    }
                }
                client.waitFor(60, TimeUnit.SECONDS);
                if (finalLine != null) {
                    // Final: iterations, overhead p50, average, overall (us), bandwidth average, overall (MB/s), ...
                    String[] fields = finalLine.trim().split("\\s+");
                    double megabytesPerSecond = Double.parseDouble(fields[6]); // ucx_perftest's MB is 2^20 bytes
                    return megabytesPerSecond * (1 << 20) / 1e9;
                }
                Thread.sleep(100); // the server was not listening yet
            }
            throw new IOException("ucx_perftest printed no result (tried 50 times)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } finally {
            serverProcess.destroy();
            try {
                serverProcess.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            serverProcess.destroyForcibly();
        }
    }
}
