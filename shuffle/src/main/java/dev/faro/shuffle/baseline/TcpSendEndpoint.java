package dev.faro.shuffle.baseline;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.auth.ChallengeResponse;
import dev.faro.shuffle.endpoint.EndpointFailure;
import dev.faro.shuffle.endpoint.SendEndpoint;
import dev.faro.shuffle.endpoint.ShuffleBuffer;
import dev.faro.shuffle.endpoint.StreamState;
import dev.faro.shuffle.endpoint.WaitLoop;
import dev.faro.shuffle.protocol.MessageHeaderDescriptor;
import dev.faro.shuffle.setup.EndpointFactory;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The sending side of the TCP socket baseline: one blocking loopback {@link SocketChannel} per destination node,
 * authenticated with the cluster secret before any data ({@link TcpHandshake}: the sender proves it and checks the
 * receiver's proof); {@link #putData} writes the buffer (header and payload, one frame) with blocking {@code write}
 * calls, TCP's own window doing the flow control. Buffers are plain off-heap memory, nothing is registered.
 *
 * <p>Thread-safe like every {@link SendEndpoint}: a shared endpoint serializes the frames of its threads per
 * connection (a frame is written whole under the connection's lock). Data path: allocation-free after construction.
 */
public final class TcpSendEndpoint implements SendEndpoint {

    /** How long one wait for a free buffer blocks before the stall check runs again. */
    private static final long POLL_MILLIS = 10;

    private final int id;
    private final TcpShuffleConfig config;
    private final Arena arena = Arena.ofShared();
    private final ShuffleBuffer[] buffers;
    private final ByteBuffer[] views;
    private final ArrayBlockingQueue<ShuffleBuffer> free;
    private final SocketChannel[] channels;
    private final EndpointFailure failure;
    private final WaitLoop waits;
    private final WaitLoop.Step acquireStep = this::tryAcquire;

    /**
     * Connects to the receive endpoint of every node, listening on {@code ports[node]} on the loopback address, and
     * passes its handshake for the exchange {@code shuffleName} whose receive endpoints drew {@code tokens[node]}.
     *
     * @throws FaroException {@code NETWORK} if a connection cannot be made or authenticated
     */
    TcpSendEndpoint(
            int id,
            int[] ports,
            byte[][] tokens,
            TcpShuffleConfig config,
            ChallengeResponse proofs,
            String shuffleName) {
        this.id = id;
        this.config = config;
        this.failure = new EndpointFailure("tcp send endpoint " + id + " of '" + shuffleName + "'");
        this.waits = new WaitLoop(failure, config.stallTimeout(), config.progress());
        int count = config.threadsPerEndpoint() * (ports.length + 1);
        this.buffers = new ShuffleBuffer[count];
        this.views = new ByteBuffer[count];
        this.free = new ArrayBlockingQueue<>(count);
        for (int i = 0; i < count; i++) {
            MemorySegment segment = arena.allocate(config.messageBytes(), 64);
            buffers[i] = new ShuffleBuffer(i, segment);
            views[i] = segment.asByteBuffer();
            free.add(buffers[i]);
        }
        this.channels = new SocketChannel[ports.length];
        try {
            for (int node = 0; node < ports.length; node++) {
                SocketChannel channel = SocketChannel.open();
                channels[node] = channel;
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), ports[node]));
                int target = EndpointFactory.endpointId(node, id & 0xffff);
                TcpHandshake.dial(
                        channel,
                        proofs,
                        TcpHandshake.binding(shuffleName, tokens[node], id, target),
                        id,
                        tokens[node],
                        config.stallTimeout(),
                        "tcp send endpoint " + id + " of '" + shuffleName + "' to node " + node);
            }
        } catch (IOException e) {
            close();
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "tcp send endpoint " + id + ": cannot connect: " + e.getMessage(),
                    e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public ShuffleBuffer acquire() {
        ShuffleBuffer buffer = buffers[waits.awaitOrFail(acquireStep, 0, null, "no buffer came free", "")];
        buffer.payloadLength(0);
        return buffer;
    }

    /** Takes a free buffer, waiting for one up to {@value #POLL_MILLIS} ms. */
    private int tryAcquire(int unused) {
        try {
            ShuffleBuffer buffer = free.poll();
            if (buffer == null) {
                buffer = free.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            }
            return buffer == null ? WaitLoop.BLOCKED : buffer.index();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure.fail("interrupted while waiting for a buffer");
        }
    }

    @Override
    public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        int length = buffer.payloadLength();
        MessageHeaderDescriptor.write(buffer.segment(), 0, state, MessageHeaderDescriptor.KIND_DATA, id, length, 0, 0);
        ByteBuffer view = views[buffer.index()];
        try {
            for (int destination : destinations) {
                SocketChannel channel = channels[destination];
                synchronized (channel) {
                    view.clear().limit(MessageHeaderDescriptor.LENGTH + length);
                    while (view.hasRemaining()) {
                        channel.write(view);
                    }
                }
            }
        } catch (IOException e) {
            throw failure.fail("writing to a peer failed: " + e.getMessage());
        } finally {
            free.offer(buffer);
        }
    }

    /** Closes the connections (the receivers see the end of each stream after its DEPLETED) and frees the buffers. */
    @Override
    public void close() {
        for (SocketChannel channel : channels) {
            if (channel == null) {
                continue;
            }
            try {
                channel.close();
            } catch (IOException e) {
                // closing: nothing left to report to
            }
        }
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
