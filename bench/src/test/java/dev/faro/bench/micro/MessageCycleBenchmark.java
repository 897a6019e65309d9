package dev.faro.bench.micro;

import dev.faro.shuffle.endpoint.EndpointDesign;
import dev.faro.shuffle.endpoint.ReceiveEndpoint;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One full message cycle of a design over a real {@code shm} fabric, two nodes in one JVM: ACQUIRE and PUTDATA of a
 * full buffer (64 KiB for RC designs, 4 KiB for UD) at node 0 to node 1, then GETDATA and RELEASE at node 1, on one
 * thread (the paper's 16 buffers per peer and credit every 2 receives leave the sender credit for the next cycle).
 * Score: ns per message; the fabric's copy of the payload is part of it. {@code payload = empty} sends the same
 * cycle with no payload (the header only): the design's per-message protocol cost (work requests, completions,
 * credits, ring slots) without the copy, which the difference to {@code full} is.
 */
public class MessageCycleBenchmark extends MicroBenchmark {

    private static final int[] TO_NODE_1 = {1};

    @Param({"SESQ_SR", "MESQ_SR", "SEMQ_SR", "MEMQ_SR", "SEMQ_RD", "MEMQ_RD", "SEMQ_WR", "MEMQ_WR"})
    public EndpointDesign design;

    @Param({"full", "empty"})
    public String payload;

    private boolean empty;
    private ShmPair pair;
    private SendEndpoint sender;
    private ReceiveEndpoint receiver;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        empty = "empty".equals(payload);
        pair = new ShmPair(design);
        sender = pair.sender(0);
        receiver = pair.receiver(1);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        pair.close();
    }

    /** One buffer from node 0 to node 1 and back into circulation; returns the payload bytes received. */
    @Benchmark
    public int cycle() {
        ShuffleBuffer buffer = sender.acquire();
        buffer.payloadLength(empty ? 0 : buffer.payloadCapacity());
        sender.putData(buffer, TO_NODE_1, StreamState.MORE_DATA);
        ShuffleBuffer received = receiver.getData();
        int bytes = received.payloadLength();
        receiver.release(received);
        return bytes;
    }
}
