package dev.faro.cluster.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the cluster's frame decoder ({@link FrameChannel#receive}, {@link Frame}'s accessors) and both sides of the
 * {@link Handshake} on arbitrary bytes, in-process over streams. The property: a receive either yields a frame or
 * throws {@link ProtocolException}, {@link AuthenticationException} or {@link EOFException} (the stream ended), never
 * another exception, and the bytes allocated stay proportional to the bytes that arrived, whatever lengths they claim.
 *
 * <p>Input: the first byte chooses the entry point (low two bits: a raw receive loop, the worker's {@link
 * Handshake#join}, the coordinator's {@link Handshake#authenticateWorker}; bit 2: the channel is authenticated, so
 * frames may be large); the rest is what the peer sent. Crash inputs are kept in {@code FrameChannelFuzzTestInputs}.
 */
class FrameChannelFuzzTest {

    /** Fixed costs of one input (stream buffers, Jackson's buffers, HMAC), and Jackson's per-byte tree cost. */
    private static final long ALLOCATION_ALLOWANCE_BYTES = 4L << 20;

    private static final long ALLOCATION_PER_INPUT_BYTE = 256;

    private static final ClusterSecret SECRET = ClusterSecret.of("fuzz");

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void decode(byte[] input) {
        if (input.length == 0) {
            return;
        }
        long limit = ALLOCATION_ALLOWANCE_BYTES + ALLOCATION_PER_INPUT_BYTE * input.length;
        long allocated = allocatedBy(input);
        if (allocated >= limit) {
            allocated = allocatedBy(input); // the first use of a code path loads classes: measure it warm
        }
        assertThat(allocated)
                .as("bytes allocated for %d input bytes", input.length)
                .isLessThan(limit);
    }

    private static long allocatedBy(byte[] input) {
        long before = allocatedBytes();
        run(input[0], Arrays.copyOfRange(input, 1, input.length));
        return allocatedBytes() - before;
    }

    private static void run(int mode, byte[] stream) {
        try (FrameChannel channel =
                new FrameChannel(new ByteArrayInputStream(stream), OutputStream.nullOutputStream(), "fuzz")) {
            if ((mode & 4) != 0) {
                channel.authenticated();
            }
            switch (mode & 3) {
                case 1 -> Handshake.join(channel, SECRET, 1, "fuzz-host", -1);
                case 2 -> Handshake.authenticateWorker(channel, SECRET);
                default -> receiveAll(channel);
            }
        } catch (ProtocolException | AuthenticationException | EOFException expected) {
            // the documented outcomes of bytes that are not (or not only) good frames
        } catch (IOException e) {
            throw new AssertionError("an I/O failure other than the end of the stream: " + e, e);
        }
    }

    /** Receives frames until the stream ends, reading each the way the coordinator and the workers do. */
    private static void receiveAll(FrameChannel channel) throws IOException {
        while (true) {
            Frame frame = channel.receive();
            MessageType type = frame.type();
            assertThat(type).isNotNull();
            frame.header().fieldNames().forEachRemaining(field -> {
                frame.text(field);
                if (frame.header().get(field).isNumber()) {
                    frame.number(field);
                }
            });
            assertThat(frame.toString()).isNotNull();
        }
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
