package dev.faro.middleware.exchange;

import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.Arena;

/**
 * The same-process shortcut of one exchange for one engine thread (DAIS16 §2.1: a receiver in the same DQE instance
 * gets the sender's rows directly, through shared session state, with no serialization and no network): the buffers
 * sending thread {@code t} fills for its own node are handed to receiving thread {@code t} by reference instead of
 * being copied into the ring and out again. {@value #POOL} buffers, allocated at the first use, circulate: taken from
 * {@link #free} and filled by the sender, passed through {@link #full}, read in place by the receiver and returned to
 * {@link #free} when it releases them. Each queue has one producer and one consumer thread, and as many slots as
 * there are buffers, so no offer ever fails.
 */
final class LocalBuffers {

    /** Buffers per engine thread and exchange: as many as the ring of a worker pair holds (4) and as many again. */
    static final int POOL = 8;

    /** Receiver → sender: buffers the receiving thread released (and, at first, every buffer). */
    final HandoffQueue<ShuffleBuffer> free = new HandoffQueue<>(POOL);
    /** Sender → receiver: filled buffers, in the order they were sent. */
    final HandoffQueue<ShuffleBuffer> full = new HandoffQueue<>(POOL);

    LocalBuffers(int thread, Arena arena) {
        for (int i = 0; i < POOL; i++) {
            free.offer(new ShuffleBuffer(
                    thread, arena.allocate(MessageHeaderDescriptor.LENGTH + NodeMiddleware.BUFFER_BYTES, 8)));
        }
    }
}
