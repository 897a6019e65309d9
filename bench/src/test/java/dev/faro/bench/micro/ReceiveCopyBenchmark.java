package dev.faro.bench.micro;

import dev.faro.bench.shuffle.ShuffleTuples;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ReceiveSource;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The RECEIVE operator's copy-out ({@link ReceiveSource#next}) on its own: 64 KiB buffers of 16-byte tuples from an
 * endpoint that hands out a full buffer on every GETDATA, copied into a vector of {@value #VECTOR} tuples. Score: ns per
 * tuple. {@link #consumeInPlace} is what {@code faro bench shuffle}'s RECEIVE threads do instead: each buffer read where
 * it arrived ({@link ReceiveSource#nextInPlace}) and checksummed (a murmur3 mix of every tuple's second word), the
 * whole per-tuple work of their loop.
 */
public class ReceiveCopyBenchmark extends MicroBenchmark {

    static final int VECTOR = 1024;

    /** Tuples in one full 64 KiB buffer (its payload after the message header). */
    static final int BUFFER_TUPLES =
            (EndpointConfig.DEFAULT_RC_BUFFER_BYTES - MessageHeaderDescriptor.LENGTH) / ShuffleTuples.TUPLE_BYTES;

    private Arena arena;
    private MemorySegment vector;
    private ReceiveSource source;
    private ReceiveSource inPlaceSource;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        vector = arena.allocate((long) VECTOR * ShuffleTuples.TUPLE_BYTES, 64);
        source = new ReceiveSource(
                new FakeEndpoints.Repeating(arena, EndpointConfig.DEFAULT_RC_BUFFER_BYTES, ShuffleTuples.TUPLE_BYTES),
                ShuffleTuples.TUPLE_BYTES);
        inPlaceSource = new ReceiveSource(
                new FakeEndpoints.Repeating(arena, EndpointConfig.DEFAULT_RC_BUFFER_BYTES, ShuffleTuples.TUPLE_BYTES),
                ShuffleTuples.TUPLE_BYTES);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** One full vector out of the endpoint's buffers. */
    @Benchmark
    @OperationsPerInvocation(VECTOR)
    public int copyOut() {
        return source.next(vector);
    }

    /** One buffer consumed in place: its tuples' checksum, as a RECEIVE thread of the shuffle benchmarks sums it. */
    @Benchmark
    @OperationsPerInvocation(BUFFER_TUPLES)
    public long consumeInPlace() {
        int tuples = inPlaceSource.nextInPlace();
        MemorySegment data = inPlaceSource.inPlace();
        long checksum = 0;
        for (int i = 0; i < tuples; i++) {
            checksum += Partitioner.mix(
                    data.get(ValueLayout.JAVA_LONG_UNALIGNED, (long) i * ShuffleTuples.TUPLE_BYTES + Long.BYTES));
        }
        return checksum;
    }
}
