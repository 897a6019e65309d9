package dev.faro.bench.micro;

import dev.faro.bench.shuffle.ShuffleTuples;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.operator.ReceiveSource;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The RECEIVE operator's copy-out ({@link ReceiveSource#next}) on its own: 64 KiB buffers of 16-byte tuples from an
 * endpoint that hands out a full buffer on every GETDATA, copied into a vector of {@value #VECTOR} tuples. Score: ns per
 * tuple.
 */
public class ReceiveCopyBenchmark extends MicroBenchmark {

    static final int VECTOR = 1024;

    private Arena arena;
    private MemorySegment vector;
    private ReceiveSource source;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        vector = arena.allocate((long) VECTOR * ShuffleTuples.TUPLE_BYTES, 64);
        source = new ReceiveSource(
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
}
