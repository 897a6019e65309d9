package dev.faro.fabric.net;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.faro.fabric.auth.SharedSecret;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the {@code net} provider's datagram decoder as {@link DatagramEndpoint} runs it on a received UDP datagram:
 * {@link DatagramDescriptor#checkedPayloadLength}, then the tag over the header and payload, then the fields and the
 * payload copied out. The property: the check never throws, and a datagram it accepts has its payload and tag inside
 * what arrived and a payload of at most the MTU, so verifying the tag and copying the payload into a receive buffer
 * cannot fail. Input: the first byte set to 1 tags the rest with the shared secret first (a peer that knows the secret
 * and sends nonsense); the rest is the datagram. Crash inputs are kept in {@code NetDatagramFuzzTestInputs}.
 */
class NetDatagramFuzzTest {

    private static final SharedSecret SECRET = SharedSecret.of("fuzz", "fuzz test");

    private final Mac mac = SECRET.newMac();
    private final byte[] tag = new byte[32];
    private final ByteBuffer incoming =
            ByteBuffer.allocateDirect(DatagramDescriptor.MAX_LENGTH + 1).order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment receive = MemorySegment.ofArray(new byte[NetUdQueuePair.MTU_BYTES]);

    @FuzzTest(maxDuration = "4s")
    @Timeout(60)
    void deliver(byte[] input) throws ShortBufferException {
        if (input.length == 0) {
            return;
        }
        incoming.clear();
        incoming.put(input, 1, Math.min(input.length - 1, incoming.capacity())); // a longer datagram is truncated
        incoming.flip();
        int size = incoming.remaining();
        if (input[0] == 1 && size >= DatagramDescriptor.HEADER_LENGTH + DatagramDescriptor.TAG_LENGTH) {
            sign(size);
        }

        int length = DatagramDescriptor.checkedPayloadLength(incoming, size);
        if (length < 0) {
            assertThat(length).isIn(DatagramDescriptor.NOT_A_DATAGRAM, DatagramDescriptor.BAD_PAYLOAD_LENGTH);
            return;
        }
        assertThat(length).isBetween(0, NetUdQueuePair.MTU_BYTES);
        int tagAt = DatagramDescriptor.HEADER_LENGTH + length;
        assertThat(tagAt + DatagramDescriptor.TAG_LENGTH).isEqualTo(size);
        incoming.limit(tagAt);
        mac.update(incoming);
        incoming.limit(size);
        mac.doFinal(tag, 0);
        int difference = 0;
        for (int i = 0; i < DatagramDescriptor.TAG_LENGTH; i++) {
            difference |= tag[i] ^ incoming.get(tagAt + i);
        }
        if (difference != 0) {
            return; // refused: the sender does not know the secret
        }
        incoming.getLong(DatagramDescriptor.DESTINATION_NODE_OFFSET);
        incoming.getInt(DatagramDescriptor.DESTINATION_QPN_OFFSET);
        incoming.getLong(DatagramDescriptor.SOURCE_NODE_OFFSET);
        incoming.getInt(DatagramDescriptor.SOURCE_QPN_OFFSET);
        MemorySegment.copy(
                MemorySegment.ofBuffer(incoming.position(0)), DatagramDescriptor.HEADER_LENGTH, receive, 0, length);
    }

    /** Writes the tag the endpoint expects for the payload length the datagram claims, where that fits. */
    private void sign(int size) throws ShortBufferException {
        int claimed = incoming.getInt(DatagramDescriptor.PAYLOAD_LENGTH_OFFSET);
        if (claimed < 0 || claimed > size - DatagramDescriptor.HEADER_LENGTH - DatagramDescriptor.TAG_LENGTH) {
            return;
        }
        int tagAt = DatagramDescriptor.HEADER_LENGTH + claimed;
        incoming.limit(tagAt);
        mac.update(incoming);
        incoming.limit(size).position(0);
        mac.doFinal(tag, 0);
        incoming.put(tagAt, tag, 0, DatagramDescriptor.TAG_LENGTH);
    }
}
