package dev.faro.fabric.net;

import dev.faro.fabric.WorkRequest;
import dev.faro.fabric.spi.PostedSend;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * One entry of a queue pair's send queue on the {@code net} fabric: a {@link PostedSend} (the copy of a posted
 * request, read by the progress thread) plus a UD request's destination and a socket view of the inline bytes.
 * Threads as in {@link PostedSend}.
 */
final class SendSlot extends PostedSend<NetMemoryRegion, NetRemoteKey> {

    NetQueuePairAddress destination;

    /** A view of {@link #inlineBytes} for sockets. */
    final ByteBuffer inlineView;

    SendSlot(MemorySegment inlineBytes) {
        super(inlineBytes, NetRemoteKey.class);
        this.inlineView = inlineBytes.asByteBuffer();
    }

    @Override
    protected void filled(WorkRequest request) {
        destination = request.destination() instanceof NetQueuePairAddress address ? address : null;
    }

    @Override
    public void clear() {
        super.clear();
        destination = null;
    }
}
