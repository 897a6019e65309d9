package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.FaultInjection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The UD designs under seeded fault injection (TODS19 §5.3): loss raises the typed NETWORK error within the
 * timeouts and never hangs; reordering alone still delivers exactly once (message counting); duplication, alone or
 * with loss, delivers exactly once or raises the error — never a silently wrong result.
 */
class UdFaultInjectionTest {

    private static final int TUPLES_PER_THREAD = 20_000;
    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-ud-fault-test");
    }

    @AfterAll
    static void checkNothingLeft() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    private static EndpointConfig config(EndpointDesign design) {
        return EndpointConfig.defaults(design, 2)
                .withBufferBytes(1024)
                .withBuffersPerPeer(8)
                .withStallTimeout(Duration.ofSeconds(3))
                .withDatagramTimeout(Duration.ofMillis(300));
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SESQ_SR", "MESQ_SR"})
    void lossRaisesTheNetworkError(EndpointDesign design) {
        FaultInjection loss = new FaultInjection(42, 0.02, 0, 0);
        assertThatThrownBy(() -> InJvmShuffle.run(
                        directory, config(design), TransmissionGroups.repartition(2), TUPLES_PER_THREAD, loss, false))
                .isInstanceOf(ExecutionException.class)
                .rootCause()
                .isInstanceOf(FaroException.class)
                .satisfies(e -> assertThat(((FaroException) e).category()).isEqualTo(FaroException.Category.NETWORK));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void reorderingAloneStillDeliversExactlyOnce(long seed) throws Exception {
        FaultInjection reorder = new FaultInjection(seed, 0, 0.2, 0);
        InJvmShuffle.Result result = InJvmShuffle.run(
                directory,
                config(EndpointDesign.MESQ_SR),
                TransmissionGroups.repartition(3),
                TUPLES_PER_THREAD,
                reorder,
                false);
        assertThat(result.exactlyOnce()).as("seed %d: %s", seed, result).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void duplicationAndLossNeverGiveAWrongResult(long seed) throws Exception {
        FaultInjection faults = new FaultInjection(seed, seed % 2 == 0 ? 0.001 : 0, 0.1, 0.002);
        try {
            InJvmShuffle.Result result = InJvmShuffle.run(
                    directory,
                    config(EndpointDesign.MESQ_SR),
                    TransmissionGroups.repartition(2),
                    TUPLES_PER_THREAD,
                    faults,
                    false);
            assertThat(result.exactlyOnce())
                    .as("seed %d finished without an error, so it must be exact", seed)
                    .isTrue();
        } catch (ExecutionException e) {
            Throwable cause = e;
            while (cause.getCause() != null && !(cause instanceof FaroException)) {
                cause = cause.getCause();
            }
            assertThat(cause).as("seed %d", seed).isInstanceOf(FaroException.class);
            assertThat(((FaroException) cause).category())
                    .as("seed %d: %s", seed, cause.getMessage())
                    .isEqualTo(FaroException.Category.NETWORK);
        }
    }
}
