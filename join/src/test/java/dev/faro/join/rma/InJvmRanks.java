package dev.faro.join.rma;

import dev.faro.fabric.Fabric;
import dev.faro.fabric.FabricConfig;
import dev.faro.fabric.Fabrics;
import dev.faro.fabric.bootstrap.LocalPeerExchange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one function per rank, each rank a fabric node of its own in this JVM (on {@code shm} or {@code net}), with
 * its {@link RmaGroup} open; returns the results by rank. Test helper.
 */
public final class InJvmRanks {

    /** What a rank runs. */
    @FunctionalInterface
    public interface RankBody<T> {
        T run(RmaGroup group) throws Exception;
    }

    /** The providers every RMA test runs on (both support one-sided WRITE). */
    public static final List<String> PROVIDERS = List.of("shm", "net");

    private static final String NET_SECRET = "faro-join-test-" + Long.toHexString(System.nanoTime());

    private InJvmRanks() {}

    /** The fabric configuration of rank {@code rank} on {@code provider}; {@code directory} holds shm files. */
    public static FabricConfig config(String provider, Path directory, int rank) {
        FabricConfig config = FabricConfig.of(provider, "rank-" + rank).withPeerTimeout(Duration.ofSeconds(2));
        return switch (provider) {
            case "shm" -> config.withOption("shm.directory", directory.toString());
            case "net" -> config.withOption("net.secret", NET_SECRET);
            default -> config;
        };
    }

    /** Runs {@code body} on {@code ranks} ranks; the first failure (by rank) is rethrown. */
    public static <T> List<T> run(String provider, Path directory, int ranks, RmaConfig config, RankBody<T> body)
            throws Exception {
        LocalPeerExchange.Group exchange = LocalPeerExchange.group(ranks, Duration.ofSeconds(30));
        ExecutorService pool = Executors.newFixedThreadPool(ranks);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int rank = 0; rank < ranks; rank++) {
                int self = rank;
                futures.add(pool.submit(() -> {
                    try (Fabric fabric = Fabrics.open(config(provider, directory, self));
                            RmaGroup group = RmaGroup.open(fabric, exchange.member(self), "test", config, () -> {})) {
                        T result = body.run(group);
                        group.finish();
                        return result;
                    }
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                try {
                    results.add(future.get(120, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                } catch (TimeoutException e) {
                    throw new AssertionError("a rank hung for 120 s", e);
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
