package dev.faro.fabric.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the {@code net} provider's TCP frame decoder as a {@link Connection} runs it on what a peer sent: frame after
 * frame, {@link FrameDescriptor.Header#decode} then {@link FrameDescriptor.Header#hasValidLength}, the payload skipped.
 * The property: decoding never throws, and a frame that passes both carries a known type with a payload length that
 * type may carry, so the handlers' buffers fit it: a handshake or atomic payload is read whole into the connection's
 * small buffer ({@link FrameDescriptor#MAX_HANDSHAKE_PAYLOAD} bytes), control frames and READ requests carry none, and
 * nothing exceeds the largest message. Crash inputs are kept in {@code NetFrameFuzzTestInputs}.
 */
class NetFrameFuzzTest {

    private static final long MAX_MESSAGE_BYTES = NetFabric.CAPABILITIES.maxMessageBytes();

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void decode(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN);
        FrameDescriptor.Header header = new FrameDescriptor.Header();
        ByteBuffer small = ByteBuffer.allocate(FrameDescriptor.MAX_HANDSHAKE_PAYLOAD);
        while (in.remaining() >= FrameDescriptor.HEADER_LENGTH) {
            int at = in.position();
            if (!header.decode(in)) {
                assertThat(in.position()).isEqualTo(at);
                return; // the connection fails: not a faro net frame
            }
            assertThat(in.position()).isEqualTo(at + FrameDescriptor.HEADER_LENGTH);
            if (!header.hasValidLength(MAX_MESSAGE_BYTES)) {
                return; // the connection fails: a bad frame
            }
            byte type = header.type;
            int length = header.payloadLength;
            assertThat(length).isBetween(0, (int) Math.min(Integer.MAX_VALUE, MAX_MESSAGE_BYTES));
            if (FrameDescriptor.isHandshake(type)
                    || type == FrameDescriptor.FETCH_ADD
                    || type == FrameDescriptor.COMPARE_SWAP) {
                small.clear().limit(length); // Connection.sinkSmall
            } else if (type == FrameDescriptor.HEARTBEAT
                    || type == FrameDescriptor.GOODBYE
                    || type == FrameDescriptor.READ_REQUEST
                    || type == FrameDescriptor.ACK
                    || type == FrameDescriptor.NAK
                    || type == FrameDescriptor.ATOMIC_RESPONSE) {
                assertThat(length).isZero();
            } else {
                assertThat(FrameDescriptor.isRequest(type) || FrameDescriptor.isResponse(type))
                        .isTrue();
            }
            in.position(at + FrameDescriptor.HEADER_LENGTH + (int) Math.min(in.remaining(), length));
        }
    }
}
