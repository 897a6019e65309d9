package dev.faro.bench.hyper;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import dev.faro.hyper.HyperConfig;
import dev.faro.hyper.HyperTransport;
import dev.faro.hyper.Multiplexer;
import dev.faro.shuffle.endpoint.ProgressSignal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code nodes} hyper nodes in this process, each an {@code shm} fabric (in a fresh directory of its own under {@code
 * /dev/shm}, or the temp dir where there is none, with the given extra fabric options), a {@link Multiplexer} and a {@link HyperTransport} over a local
 * peer exchange; closing them removes the directory. Coordination code.
 */
final class InProcessHyperCluster implements AutoCloseable {

    private final Path directory;
    private final List<Fabric> fabrics = new ArrayList<>();
    private final List<Multiplexer> multiplexers = new ArrayList<>();
    private final List<HyperTransport> transports = new ArrayList<>();
    private final Consumer<String> progress;

    InProcessHyperCluster(
            String name, int nodes, HyperConfig config, Map<String, String> fabricOptions, Consumer<String> progress) {
        this.progress = progress;
        directory = scratchDirectory(name);
        try {
            for (int node = 0; node < nodes; node++) {
                FabricConfig fabricConfig =
                        FabricConfig.of("shm", name + "-" + node).withOption("shm.directory", directory.toString());
                for (Map.Entry<String, String> option : fabricOptions.entrySet()) {
                    fabricConfig = fabricConfig.withOption(option.getKey(), option.getValue());
                }
                Fabric fabric = Fabrics.open(fabricConfig);
                fabrics.add(fabric);
                multiplexers.add(new Multiplexer(fabric, node, nodes, config));
            }
            LocalPeerExchange.Group group = LocalPeerExchange.group(nodes, Duration.ofSeconds(60));
            for (int node = 0; node < nodes; node++) {
                transports.add(new HyperTransport(
                        multiplexers.get(node), group.member(node), Duration.ofSeconds(60), ProgressSignal.NONE));
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    int nodes() {
        return transports.size();
    }

    HyperTransport transport(int node) {
        return transports.get(node);
    }

    Multiplexer multiplexer(int node) {
        return multiplexers.get(node);
    }

    @Override
    public void close() {
        multiplexers.forEach(Multiplexer::close);
        fabrics.forEach(Fabric::close);
        remove(directory, progress);
    }

    /** A fresh directory for in-process {@code shm} nodes: under {@code /dev/shm}, or the temp dir where there is none. */
    static Path scratchDirectory(String name) {
        try {
            Path shm = Path.of("/dev/shm");
            Path base = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? shm
                    : Path.of(System.getProperty("java.io.tmpdir"));
            return Files.createTempDirectory(base, "faro-" + name + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes {@code directory} and what is left in it (the fabrics remove their files on close). */
    static void remove(Path directory, Consumer<String> progress) {
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            progress.accept("could not remove " + directory + ": " + e.getMessage());
        }
    }
}
