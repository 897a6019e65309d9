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
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The sending side of the TCP socket baseline: one loopback {@link SocketChannel} per destination node,
 * authenticated with the cluster secret before any data ({@link TcpHandshake}: the sender proves it and checks the
 * receiver's proof), then switched to non-blocking; {@link #putData} writes the buffer (header and payload, one
 * frame) as far as the socket takes it, TCP's own window doing the flow control: what it does not take stays pending
 * on the connection (its buffer is not free yet) and every later call pushes it on ({@link #acquire}'s wait,
 * {@link #canPut}, {@link #flush}, a later {@link #putData} to that node first waits for it). So TCP's window shows as
 * {@link #canPut} false and as buffers not coming free, never as a thread blocked in the kernel. Buffers are plain
 * off-heap memory, nothing is registered.
 *
 * <p>Thread-safe like every {@link SendEndpoint}: a shared endpoint serializes the frames of its threads per
 * connection (a frame is written whole under the connection's lock). Data path: allocation-free after construction.
 */
public final class TcpSendEndpoint implements SendEndpoint {

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
    private final WaitLoop.Step flushStep = this::tryFlush;
    /** Per destination, a view of each buffer (a frame's write position per connection). */
    private final ByteBuffer[][] frameViews;
    /** Per destination, the frame the socket has not taken whole yet (null: none); guarded by the channel. */
    private final ShuffleBuffer[] pending;
    /** Per buffer, the destinations its frame is still being written to; free at zero. */
    private final AtomicIntegerArray writing;

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
        this.pending = new ShuffleBuffer[ports.length];
        this.writing = new AtomicIntegerArray(count);
        this.frameViews = new ByteBuffer[ports.length][count];
        for (int node = 0; node < ports.length; node++) {
            for (int i = 0; i < count; i++) {
                frameViews[node][i] = views[i].duplicate();
            }
        }
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
                channel.configureBlocking(false);
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

    @Override
    public ShuffleBuffer tryAcquire() {
        int index = waits.attempt(acquireStep, 0);
        if (index == WaitLoop.IDLE) {
            return null;
        }
        buffers[index].payloadLength(0);
        return buffers[index];
    }

    /** Takes a free buffer; without one, pushes pending frames on (PROGRESS when one completed), else IDLE. */
    private int tryAcquire(int unused) {
        ShuffleBuffer buffer = free.poll();
        if (buffer != null) {
            return buffer.index();
        }
        return flushAll() ? WaitLoop.PROGRESS : WaitLoop.IDLE;
    }

    @Override
    public void putData(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        int length = buffer.payloadLength();
        MessageHeaderDescriptor.write(buffer.segment(), 0, state, MessageHeaderDescriptor.KIND_DATA, id, length, 0, 0);
        if (destinations.length == 0) {
            free.offer(buffer);
            return;
        }
        writing.set(buffer.index(), destinations.length);
        for (int destination : destinations) {
            SocketChannel channel = channels[destination];
            synchronized (channel) {
                if (pending[destination] != null) {
                    waits.awaitOrFail(flushStep, destination, null, "node " + destination + " took no data", "");
                }
                ByteBuffer view = frameViews[destination][buffer.index()];
                view.clear().limit(MessageHeaderDescriptor.LENGTH + length);
                pending[destination] = buffer;
                write(destination);
            }
        }
    }

    /** No frame pending on any destination's connection (after pushing them on): a put would not wait. */
    @Override
    public boolean canPut(ShuffleBuffer buffer, int[] destinations, StreamState state) {
        failure.check();
        for (int destination : destinations) {
            if (tryFlush(destination) != WaitLoop.DONE) {
                return false;
            }
        }
        return true;
    }

    /** Pushes every pending frame on, without waiting; true when none is left. */
    @Override
    public boolean tryFlush() {
        failure.check();
        for (int destination = 0; destination < channels.length; destination++) {
            if (tryFlush(destination) != WaitLoop.DONE) {
                return false;
            }
        }
        return true;
    }

    /** Waits until every pending frame is written. */
    @Override
    public void flush() {
        for (int destination = 0; destination < channels.length; destination++) {
            waits.awaitOrFail(flushStep, destination, null, "node " + destination + " took no data", "");
        }
    }

    /** Pushes each pending frame on; true when one completed. */
    private boolean flushAll() {
        boolean completed = false;
        for (int destination = 0; destination < channels.length; destination++) {
            if (pending[destination] != null && tryFlush(destination) == WaitLoop.DONE) {
                completed = true;
            }
        }
        return completed;
    }

    /** A step: DONE when nothing (more) is pending to {@code destination}, PROGRESS when bytes went, else IDLE. */
    private int tryFlush(int destination) {
        SocketChannel channel = channels[destination];
        if (channel == null) {
            return WaitLoop.DONE;
        }
        synchronized (channel) {
            if (pending[destination] == null) {
                return WaitLoop.DONE;
            }
            int written = write(destination);
            return pending[destination] == null ? WaitLoop.DONE : written > 0 ? WaitLoop.PROGRESS : WaitLoop.IDLE;
        }
    }

    /** Writes what the socket takes of {@code destination}'s pending frame (caller holds the channel's lock). */
    private int write(int destination) {
        ShuffleBuffer buffer = pending[destination];
        ByteBuffer view = frameViews[destination][buffer.index()];
        int written = 0;
        try {
            int n;
            while (view.hasRemaining() && (n = channels[destination].write(view)) > 0) {
                written += n;
            }
        } catch (IOException e) {
            throw failure.fail("writing to a peer failed: " + e.getMessage());
        }
        if (!view.hasRemaining()) {
            pending[destination] = null;
            if (writing.decrementAndGet(buffer.index()) == 0) {
                free.offer(buffer);
            }
        }
        return written;
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
