package dev.faro.bench.middleware;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faro bench middleware --experiments fig5} on two, then three worker JVMs over shm, one engine thread each, as
 * the default runs 4 then 8 processes (the nodes of the larger queries had served different earlier queries and must
 * still agree on the middleware): the TPC-C database loads, every query runs sequentially and over both transports,
 * every answer equals the sequential one (checked by the benchmark), and the table and files carry every point. Never
 * asserts speed.
 */
class TpccFigureIT {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a hang guard only
    void fig5RunsEveryQueryOverBothTransportsAndWritesItsFiles(@TempDir Path out) throws Exception {
        MiddlewareBenchmarkConfig config = MiddlewareBenchmarkConfig.quick()
                .with("shm", List.of("fig5"), List.of(2, 3), List.of(1), 1, 1, out)
                .withWarehouses(1);
        MiddlewareReport report = new MiddlewareBenchmark(config, null, line -> {}).run();
        assertThat(report.text()).contains("Fig. 5", "1 warehouses", "max speedup");
        // three queries sequentially, and at each process count over two transports
        assertThat(Files.readAllLines(out.resolve("middleware-fig5.csv"))).hasSize(1 + 3 + 2 * 2 * 3);
        byte[] png = Files.readAllBytes(out.resolve("middleware-fig5.png"));
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
