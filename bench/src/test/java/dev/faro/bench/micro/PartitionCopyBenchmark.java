package dev.faro.bench.micro;

import dev.faro.bench.shuffle.ShuffleTuples;
import dev.faro.shuffle.endpoint.EndpointConfig;
import dev.faro.shuffle.endpoint.TransmissionGroups;
import dev.faro.shuffle.operator.Partitioner;
import dev.faro.shuffle.operator.ShuffleSink;
import dev.faro.shuffle.setup.NodeEndpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The SHUFFLE operator's partition-and-copy loop ({@link ShuffleSink.Writer#add}) on its own: one vector of
 * {@value #VECTOR} 16-byte tuples of the E4 table (ShuffleTuples) hashed into {@code groups} repartition groups and
 * copied into 64 KiB registered-size buffers of an endpoint that recycles them at once; {@code groups = 1} is
 * broadcast's single group (no partitioning: the vector is copied as it is). Score: ns per tuple.
 *
 * <p>{@code segments = mixed} first reads and writes a mapped and a heap segment through the same JDK access code, as
 * a worker JVM does (its registered buffers are mapped files): a JVM that saw one segment class only (JMH's fork,
 * {@code native}) folds access checks that stay calls in a worker (JFR: {@code checkBounds} in a sixth of a SHUFFLE
 * thread's samples where this benchmark showed none).
 */
public class PartitionCopyBenchmark extends MicroBenchmark {

    static final int VECTOR = 1024;
    private static final int TABLE_TUPLES = 64 * VECTOR;

    @Param({"1", "2", "4", "8"})
    public int groups;

    @Param({"native", "mixed"})
    public String segments;

    private Arena arena;
    private MemorySegment table;
    private FakeEndpoints.Recycling endpoint;
    private ShuffleSink.Writer writer;
    private long offset;

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofShared();
        table = arena.allocate((long) TABLE_TUPLES * ShuffleTuples.TUPLE_BYTES, 64);
        ShuffleTuples.fill(table, 0, 0, TABLE_TUPLES);
        endpoint = new FakeEndpoints.Recycling(arena, 2 * groups + 2, EndpointConfig.DEFAULT_RC_BUFFER_BYTES);
        ShuffleSink sink = new ShuffleSink(
                new NodeEndpoints(List.of(endpoint), List.of()),
                TransmissionGroups.repartition(groups),
                Partitioner.hashLongKey(groups),
                ShuffleTuples.TUPLE_BYTES,
                1);
        writer = sink.writer(0);
        if ("mixed".equals(segments)) {
            SegmentClasses.mix(arena);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** One vector through the writer; the next call takes the table's next vector. */
    @Benchmark
    @OperationsPerInvocation(VECTOR)
    public long partitionAndCopy() {
        writer.add(table, offset, VECTOR);
        offset += (long) VECTOR * ShuffleTuples.TUPLE_BYTES;
        if (offset == table.byteSize()) {
            offset = 0;
        }
        return endpoint.bytesSent;
    }
}
