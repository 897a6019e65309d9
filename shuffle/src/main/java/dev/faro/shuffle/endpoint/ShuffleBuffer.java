package dev.faro.shuffle.endpoint;

import dev.faro.fabric.MemoryRegion;
import dev.faro.fabric.PlainSegments;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.MemorySegment;

/**
 * A registered buffer that an endpoint lends out: by {@link SendEndpoint#acquire()} to be filled, by
 * {@link ReceiveEndpoint#getData()} to be read. The first {@link MessageHeaderDescriptor#LENGTH} bytes of
 * {@link #segment()} are the endpoint's header; callers use {@link #payload()} and {@link #payloadLength()}.
 *
 * <p>Owned by one thread between acquire/getData and putData/release; created once per buffer by its endpoint.
 */
public final class ShuffleBuffer {

    private final int index;
    private final MemoryRegion region;
    private final long regionOffset;
    private final MemorySegment segment;
    private final MemorySegment payload;
    private int payloadLength;

    // Receive side: what getData decoded; written by the endpoint before the buffer is handed out.
    private StreamState state = StreamState.MORE_DATA;
    private int sourceEndpoint;
    private int sourceNode;
    private long remoteAddress;

    /** A buffer at {@code regionOffset} in {@code region}; {@code segment} is that slice of the region. */
    public ShuffleBuffer(int index, MemoryRegion region, long regionOffset, MemorySegment segment) {
        this.index = index;
        this.region = region;
        this.regionOffset = regionOffset;
        this.segment = segment;
        // a plain native view: RECEIVE's consumers read it per tuple, and a mapped segment there (shm) would be one
        // more segment class for the JDK's access checks to dispatch on (see PlainSegments)
        this.payload = PlainSegments.of(segment.asSlice(MessageHeaderDescriptor.LENGTH));
    }

    /** A buffer whose owner tracks its region itself. */
    public ShuffleBuffer(int index, MemorySegment segment) {
        this(index, null, 0, segment);
    }

    /** The buffer's number within its endpoint or pool (used as the request id when it is posted). */
    public int index() {
        return index;
    }

    /** The registered region holding the buffer (null when the owner tracks it itself). */
    public MemoryRegion region() {
        return region;
    }

    /** The buffer's offset in {@link #region()}. */
    public long regionOffset() {
        return regionOffset;
    }

    /** Header and payload: the registered bytes the endpoint moves. */
    public MemorySegment segment() {
        return segment;
    }

    /** Where tuples go (send side) or come from (receive side). */
    public MemorySegment payload() {
        return payload;
    }

    public int payloadCapacity() {
        return (int) payload.byteSize();
    }

    /** Bytes of payload filled (send side: set by the writer; receive side: as received). */
    public int payloadLength() {
        return payloadLength;
    }

    public void payloadLength(int length) {
        if (length < 0 || length > payload.byteSize()) {
            throw new IllegalArgumentException(
                    "payload length out of range: length=" + length + ", capacity=" + payload.byteSize());
        }
        this.payloadLength = length;
    }

    /** Receive side: whether this was the sender's last buffer. */
    public StreamState state() {
        return state;
    }

    /** Receive side: the sending endpoint's id. */
    public int sourceEndpoint() {
        return sourceEndpoint;
    }

    /** Receive side: the sending node. */
    public int sourceNode() {
        return sourceNode;
    }

    /** Receive side, one-sided designs: the buffer's address in the sender's memory; 0 otherwise. */
    public long remoteAddress() {
        return remoteAddress;
    }

    /** For endpoints: records what arrived. */
    public void received(StreamState newState, int newSourceEndpoint, int newSourceNode, int length, long remote) {
        this.state = newState;
        this.sourceEndpoint = newSourceEndpoint;
        this.sourceNode = newSourceNode;
        this.payloadLength = length;
        this.remoteAddress = remote;
    }

    @Override
    public String toString() {
        return "ShuffleBuffer[index=" + index + ", payloadLength=" + payloadLength + ", state=" + state + "]";
    }
}
