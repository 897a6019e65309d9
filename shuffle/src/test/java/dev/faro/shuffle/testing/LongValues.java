package dev.faro.shuffle.testing;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.transport.ExchangeReceiver;
import dev.faro.shuffle.transport.ExchangeSender;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Streams of longs through an exchange, as the transports' tests send and check them: one value per 8 bytes, a
 * group's buffer sent when the next value does not fit. Test code.
 */
public final class LongValues {

    private LongValues() {}

    /** Appends {@code value} to {@code group}'s open buffer of {@code sender}, sending that buffer first if full. */
    public static void write(ExchangeSender sender, int group, long value) {
        MemorySegment payload = sender.payload(group);
        int length = sender.length(group);
        if (length + Long.BYTES > payload.byteSize()) {
            sender.send(group);
            payload = sender.payload(group);
            length = sender.length(group);
        }
        payload.set(ValueLayout.JAVA_LONG_UNALIGNED, length, value);
        sender.length(group, length + Long.BYTES);
    }

    /** Takes every buffer until the end of stream, releasing each; returns {count, sum} of the longs in them. */
    public static long[] drain(ExchangeReceiver receiver) {
        long count = 0;
        long sum = 0;
        ShuffleBuffer buffer;
        while ((buffer = receiver.take()) != null) {
            for (int at = 0; at < buffer.payloadLength(); at += Long.BYTES) {
                sum += buffer.payload().get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                count++;
            }
            receiver.release(buffer);
        }
        return new long[] {count, sum};
    }
}
