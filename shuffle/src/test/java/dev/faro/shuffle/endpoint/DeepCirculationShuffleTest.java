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
 * Regression (issue 6): a receiver with far more buffers per peer than its credit queue pair's send depth (64) and a
 * credit write after every receive must never overflow that send queue ({@code QUEUE_FULL}) nor stall, and stays
 * exactly-once. Many buffers arrive before the consumer polls again, so many credit writes are posted between two
 * polls of the data completion queue.
 */
class DeepCirculationShuffleTest {

    private static Path directory;

    @BeforeAll
    static void createDirectory() throws IOException {
        directory = Files.createTempDirectory(Path.of("/dev/shm"), "faro-deep-test");
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
    void fixed256PerPeer(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.Fixed(256));
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR"})
    void adaptiveUpTo512PerPeer(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.Adaptive(2, 512));
    }

    @ParameterizedTest
    @EnumSource(
            value = EndpointDesign.class,
            names = {"SESQ_SR", "MESQ_SR"})
    void adaptiveUpTo64PerPeer(EndpointDesign design) throws Exception {
        run(design, new BufferPolicy.Adaptive(2, 64));
    }

    private static void run(EndpointDesign design, BufferPolicy policy) throws Exception {
        EndpointConfig config = EndpointConfig.defaults(design, 2)
                .withBufferBytes(1024)
                .withBufferPolicy(policy)
                .withCreditWriteBackFrequency(1)
                .withStallTimeout(Duration.ofSeconds(20));
        InJvmShuffle.Result result = InJvmShuffle.run(
                directory, config, TransmissionGroups.repartition(3), 100_000, FaultInjection.NONE, false);
        assertThat(result.exactlyOnce())
                .as("%s with %s: %s", design, policy, result)
                .isTrue();
    }
}
