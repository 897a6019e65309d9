package dev.faro.middleware;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Processes simulated in one JVM: one fabric node and one middleware each, opened together. */
final class MiddlewareCluster implements AutoCloseable {

    /** What one worker thread does. */
    @FunctionalInterface
    interface WorkerBody<T> {
        T run(ShuffleQueues worker) throws Exception;
    }

    final Path directory;
    final List<Fabric> fabrics = new ArrayList<>();
    final List<ShuffleMiddleware> middlewares = new ArrayList<>();
    final List<NioShuffle> nio = new ArrayList<>();
    private final MiddlewareConfig config;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    /** {@code transport}: a fabric provider ({@code shm}, {@code net}) for the middleware, or {@code nio}. */
    MiddlewareCluster(String transport, MiddlewareConfig config) throws Exception {
        this.config = config;
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-middleware-test");
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(config.processes(), Duration.ofSeconds(30));
        if (transport.equals("nio")) {
            List<Future<NioShuffle>> opening = new ArrayList<>();
            for (int process = 0; process < config.processes(); process++) {
                int p = process;
                opening.add(pool.submit(() -> NioShuffle.open(config, exchange.member(p))));
            }
            for (Future<NioShuffle> future : opening) {
                nio.add(future.get(60, TimeUnit.SECONDS));
            }
            return;
        }
        String provider = transport;
        List<Future<ShuffleMiddleware>> opening = new ArrayList<>();
        for (int process = 0; process < config.processes(); process++) {
            Fabric fabric = Fabrics.open(
                    FabricConfig.of(provider, "p" + process).withOption("shm.directory", directory.toString()));
            fabrics.add(fabric);
            int p = process;
            opening.add(pool.submit(() -> ShuffleMiddleware.open(fabric, config, exchange.member(p))));
        }
        for (Future<ShuffleMiddleware> future : opening) {
            middlewares.add(future.get(60, TimeUnit.SECONDS));
        }
    }

    /** Runs {@code body} on every worker of every process, each on its own thread; results by global worker id. */
    <T> List<T> runOnEveryWorker(WorkerBody<T> body) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (int process = 0; process < config.processes(); process++) {
            for (int local = 0; local < config.workersPerProcess(); local++) {
                ShuffleQueues worker = nio.isEmpty()
                        ? middlewares.get(process).worker(local)
                        : nio.get(process).worker(local);
                futures.add(pool.submit(() -> body.run(worker)));
            }
        }
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(120, TimeUnit.SECONDS));
        }
        return results;
    }

    ExecutorService pool() {
        return pool;
    }

    @Override
    public void close() throws IOException {
        for (ShuffleMiddleware middleware : middlewares) {
            middleware.close();
        }
        for (NioShuffle shuffle : nio) {
            shuffle.close();
        }
        for (Fabric fabric : fabrics) {
            fabric.close();
        }
        pool.shutdownNow();
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
