package dev.faro.shuffle.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes what a shuffle receiver parses out of a received buffer: {@link MessageHeaderDescriptor#checkedPayloadLength}
 * on arbitrary bytes, at any offset, with any count of bytes said to have arrived. The property: it returns
 * {@link MessageHeaderDescriptor#NOT_A_HEADER} or {@link MessageHeaderDescriptor#BAD_PAYLOAD_LENGTH} and never throws,
 * or it accepts a header whose every field can be read and whose payload lies inside both the buffer and the bytes
 * that arrived, so a receiver can hand the buffer out as it does ({@link ShuffleBuffer#received}).
 *
 * <p>Input: byte 0 is the offset (signed), bytes 1 and 2 the count of bytes said to have arrived (big-endian, minus
 * 16), the rest is the buffer. Crash inputs are kept in {@code MessageHeaderFuzzTestInputs}.
 */
class MessageHeaderFuzzTest {

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void checkedPayloadLength(byte[] input) {
        if (input.length < 3) {
            return;
        }
        long offset = input[0];
        long availableBytes = ((input[1] & 0xff) << 8 | (input[2] & 0xff)) - 16;
        int size = input.length - 3;
        MemorySegment buffer = MemorySegment.ofArray(new byte[size]);
        MemorySegment.copy(MemorySegment.ofArray(input), 3, buffer, 0, size);

        int payloadLength = MessageHeaderDescriptor.checkedPayloadLength(buffer, offset, availableBytes);
        if (payloadLength < 0) {
            assertThat(payloadLength)
                    .isIn(MessageHeaderDescriptor.NOT_A_HEADER, MessageHeaderDescriptor.BAD_PAYLOAD_LENGTH);
            return;
        }
        assertThat(MessageHeaderDescriptor.LENGTH + (long) payloadLength).isLessThanOrEqualTo(availableBytes);
        assertThat(offset + MessageHeaderDescriptor.LENGTH + payloadLength).isLessThanOrEqualTo(size);
        assertThat(MessageHeaderDescriptor.kind(buffer, offset))
                .isBetween(MessageHeaderDescriptor.KIND_DATA, MessageHeaderDescriptor.KIND_END);
        StreamState state = MessageHeaderDescriptor.state(buffer, offset);
        MessageHeaderDescriptor.sequence(buffer, offset);
        MessageHeaderDescriptor.messageCount(buffer, offset);
        int source = MessageHeaderDescriptor.source(buffer, offset);
        if (offset == 0) { // as the endpoints do: the header at the start of a buffer, then the payload
            ShuffleBuffer received = new ShuffleBuffer(0, buffer);
            received.received(state, source, source >>> 16, payloadLength, 0);
            assertThat(received.payload().asSlice(0, received.payloadLength()).byteSize())
                    .isEqualTo(payloadLength);
        }
    }
}
