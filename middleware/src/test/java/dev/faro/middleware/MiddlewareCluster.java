package dev.faro.middleware;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        T run(MiddlewareWorker worker) throws Exception;
    }

    final Path directory;
    final List<Fabric> fabrics = new ArrayList<>();
    final List<ShuffleMiddleware> middlewares = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    MiddlewareCluster(String provider, MiddlewareConfig config) throws Exception {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-middleware-test");
        InMemoryExchange exchange = new InMemoryExchange(config.processes());
        List<Future<ShuffleMiddleware>> opening = new ArrayList<>();
        for (int process = 0; process < config.processes(); process++) {
            Fabric fabric = Fabrics.open(
                    FabricConfig.of(provider, "p" + process).withOption("shm.directory", directory.toString()));
            fabrics.add(fabric);
            int p = process;
            opening.add(pool.submit(() -> ShuffleMiddleware.open(fabric, p, config, exchange.member(p))));
        }
        for (Future<ShuffleMiddleware> future : opening) {
            middlewares.add(future.get(60, TimeUnit.SECONDS));
        }
    }

    /** Runs {@code body} on every worker of every process, each on its own thread; results by global worker id. */
    <T> List<T> runOnEveryWorker(WorkerBody<T> body) throws Exception {
        List<Future<T>> futures = new ArrayList<>();
        for (ShuffleMiddleware middleware : middlewares) {
            for (int local = 0; local < middleware.config().workersPerProcess(); local++) {
                MiddlewareWorker worker = middleware.worker(local);
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
        for (Fabric fabric : fabrics) {
            fabric.close();
        }
        pool.shutdownNow();
        try (Stream<Path> left = Files.walk(directory)) {
            left.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
