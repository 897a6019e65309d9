package dev.faro.shuffle.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.faro.fabric.FaultInjection;
import dev.faro.shuffle.buffer.BufferPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every two-sided design stays exactly-once under the adaptive and the bandwidth-delay policies; the one-sided designs
 * take the bandwidth-delay depth and refuse the adaptive policy with a clear message.
 */
class BufferPolicyShuffleTest {

    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-policy-test");
    }

    @AfterAll
    static void checkNothingLeft() throws IOException {
        try (Stream<Path> left = Files.list(directory)) {
            assertThat(left.toList()).as("shared files left behind").isEmpty();
        }
        Files.delete(directory);
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR"})
    void adaptive(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.Adaptive(2, 16));
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR"})
    void bandwidthDelay(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.BandwidthDelay(5e9, 1_000, 1024));
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR"})
    void adaptiveIsRefusedClearlyWhereNotImplemented(EndpointDesign design) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(design, new BufferPolicy.Adaptive(2, 16)))
                .rootCause()
                .isInstanceOf(dev.faro.fabric.FaroException.class)
                .hasMessageContaining("adaptive buffer management is implemented for the Send/Receive designs");
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR"})
    void bandwidthDelayOneSided(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.BandwidthDelay(5e9, 1_000, 1024));
    }

    private static void run(EndpointDesign design, BufferPolicy policy) throws Exception {
        EndpointConfig config = EndpointConfig.defaults(design, 2)
                .withBufferBytes(1024)
                .withBufferPolicy(policy)
                .withStallTimeout(Duration.ofSeconds(20));
        InJvmShuffle.Result result = InJvmShuffle.run(
                directory, config, TransmissionGroups.repartition(3), 20_000, FaultInjection.NONE, false);
        assertThat(result.exactlyOnce())
                .as("%s with %s: %s", design, policy, result)
                .isTrue();
    }
}
