package dev.faro.shuffle.protocol;

import dev.faro.fabric.Opcode;
import dev.faro.fabric.QueuePair;
import dev.faro.fabric.RemoteKey;
import dev.faro.fabric.WorkRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The receiving side of the stateless credit protocol (TODS19 §5.2): per source, the absolute number of receives
 * posted so far, written back into the sender's credit slot ({@link CreditDescriptor}) by an inlined 8-byte RDMA
 * WRITE. Every {@value #SIGNAL_EVERY} writes one is signaled, so the queue pair's send slots come back; the FINAL
 * write is always signaled.
 *
 * <p>Thread-safety: calls for one source must be serialized by the caller (the endpoints hold a per-source lock);
 * different sources may be written concurrently. Data path: allocation-free.
 */
public final class CreditWriter {

    /** The request id of credit writes, so completion handlers can tell them from data. */
    public static final long REQUEST_ID = -2;
    /** A queue pair that carries credit writes needs at least this send depth (with {@value #SIGNAL_EVERY} below). */
    public static final int SEND_DEPTH = 64;
    static final int SIGNAL_EVERY = 16;

    private final int slot;
    private final RemoteKey[] keys;
    private final MemorySegment[] scratch;
    private final WorkRequest[] requests;
    private final long[] credited;
    private final long[] written;
    private final int[] writes;

    /**
     * @param sources the sending nodes
     * @param slot the credit slot this receiver owns at every sender (its node index)
     */
    public CreditWriter(int sources, int slot) {
        this.slot = slot;
        this.keys = new RemoteKey[sources];
        MemorySegment words = Arena.ofAuto().allocate(8L * sources, 8);
        this.scratch = new MemorySegment[sources];
        this.requests = new WorkRequest[sources];
        for (int source = 0; source < sources; source++) {
            scratch[source] = words.asSlice(8L * source, 8);
            requests[source] = new WorkRequest();
        }
        this.credited = new long[sources];
        this.written = new long[sources];
        this.writes = new int[sources];
    }

    /** Where {@code source}'s credit words live (its credit region). */
    public void connect(int source, RemoteKey key) {
        keys[source] = key;
    }

    /** Counts one more receive posted for {@code source}. */
    public void credit(int source) {
        credited[source]++;
    }

    /** Receives credited to {@code source} so far. */
    public long credited(int source) {
        return credited[source];
    }

    /** Credits not yet written back to {@code source}. */
    public long unwritten(int source) {
        return credited[source] - written[source];
    }

    /** Writes the credit back on {@code queuePair} (connected to {@code source}); FINAL when {@code last}. */
    public void write(QueuePair queuePair, int source, boolean last) {
        long word = credited[source] | (last ? CreditDescriptor.FINAL_FLAG : 0);
        scratch[source].set(ValueLayout.JAVA_LONG, 0, word);
        boolean signaled = last || ++writes[source] % SIGNAL_EVERY == 0;
        queuePair.postSend(requests[source].clear()
                .requestId(REQUEST_ID)
                .opcode(Opcode.WRITE)
                .inline(scratch[source])
                .remote(keys[source], CreditDescriptor.slotOffset(slot))
                .signaled(signaled));
        written[source] = credited[source];
    }
}
