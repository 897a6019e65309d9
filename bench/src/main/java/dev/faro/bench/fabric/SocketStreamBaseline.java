package dev.faro.bench.fabric;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The baseline of the {@code net} provider's bandwidth: a plain blocking socket stream over loopback between the two
 * workers, what an application without a fabric would write. The initiator writes {@code size}-byte chunks for the
 * run's duration; the target's {@link Sink} reads them whole. Each chunk starts with its sequence number; a chunk
 * numbered -1 ends the run, and the clock stops when the sink's 8-byte acknowledgment of it arrives, so a run counts
 * only bytes the target has read, as a fabric run counts only completed requests.
 *
 * <p>The stream moves the same memory the fabric does: the initiator writes successive chunks of its data region
 * (the fabric's source) and the sink reads into successive chunks of its own (the fabric's destination), cycling
 * through the working set, so both pay for memory rather than cache traffic. Chunks are written from and read into
 * native memory through a blocking {@link SocketChannel}: one kernel copy each way, as a C program's {@code write}
 * and {@code read} (a {@code java.net.Socket} would add a copy through a JDK buffer on each side).
 *
 * <pre>
 *  initiator (main thread)                      target (sink thread)
 *   chunk 0, 1, ..., n-1 (size bytes each) ───►  read each whole
 *   chunk -1 (end of run) ────────────────────►  read it; write 8 bytes back
 *   ◄──────────────────────────────────────────  ack: the clock stops
 * </pre>
 *
 * <p>Coordination code around a timed loop that allocates nothing; one instance per point.
 */
final class SocketStreamBaseline implements AutoCloseable {

    private static final long END_OF_RUN = -1;
    private static final ValueLayout.OfLong SEQUENCE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SocketChannel channel;
    private final ChunkRing chunks;
    private final ByteBuffer ack = ByteBuffer.allocate(8);

    /**
     * Connects to the target's sink at {@code port} on loopback, writing {@code sizeBytes} per write from successive
     * chunks of {@code workingSet}.
     */
    SocketStreamBaseline(int port, int sizeBytes, MemorySegment workingSet) throws IOException {
        this.chunks = new ChunkRing(workingSet, sizeBytes);
        this.channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    }

    /** Streams chunks for {@code durationNs}, then ends the run and waits for the sink's acknowledgment. */
    Measurement measure(long durationNs) throws IOException {
        long sequence = 0;
        long startNs = System.nanoTime();
        long deadlineNs = startNs + durationNs;
        do {
            writeChunk(sequence++);
        } while (System.nanoTime() - deadlineNs < 0);
        writeChunk(END_OF_RUN);
        ack.clear();
        while (ack.hasRemaining()) {
            if (channel.read(ack) < 0) {
                throw new IOException("the socket sink closed the connection before acknowledging the run");
            }
        }
        long acknowledged = ack.getLong(0);
        long nanos = System.nanoTime() - startNs;
        if (acknowledged != sequence) {
            throw new IllegalStateException(
                    "the socket sink read " + acknowledged + " chunks, " + sequence + " were written");
        }
        long messages = sequence + 1;
        return new Measurement(messages * chunks.sizeBytes, messages, nanos, 0, 0);
    }

    private void writeChunk(long sequence) throws IOException {
        ByteBuffer chunk = chunks.next();
        chunk.putLong(0, sequence);
        while (chunk.hasRemaining()) {
            channel.write(chunk);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Byte-buffer views of successive {@code sizeBytes} chunks of a working set, handed out in a cycle. */
    private static final class ChunkRing {

        final int sizeBytes;
        private final ByteBuffer[] views;
        private int next;

        ChunkRing(MemorySegment workingSet, int sizeBytes) {
            this.sizeBytes = Math.max(8, sizeBytes);
            if (workingSet.byteSize() < this.sizeBytes) {
                throw new IllegalArgumentException("a chunk of " + this.sizeBytes + " B exceeds the working set of "
                        + workingSet.byteSize() + " B");
            }
            int count = (int) Math.min(Integer.MAX_VALUE, workingSet.byteSize() / this.sizeBytes);
            this.views = new ByteBuffer[count];
            for (int i = 0; i < count; i++) {
                views[i] = workingSet
                        .asSlice((long) i * this.sizeBytes, this.sizeBytes)
                        .asByteBuffer()
                        .order(ByteOrder.LITTLE_ENDIAN);
            }
        }

        /** The next chunk, cleared (position 0, limit its size). */
        ByteBuffer next() {
            ByteBuffer chunk = views[next].clear();
            next = next + 1 == views.length ? 0 : next + 1;
            return chunk;
        }
    }

    /**
     * The target's side: accepts one connection on loopback and reads chunks whole into successive chunks of its
     * working set on its own thread, acknowledging each end-of-run chunk with the number of data chunks read in that
     * run.
     */
    static final class Sink implements Runnable, AutoCloseable {

        private final ServerSocketChannel server;
        private final ChunkRing chunks;
        private final Thread thread;
        private volatile Throwable failure;

        Sink(int sizeBytes, MemorySegment workingSet) throws IOException {
            this.chunks = new ChunkRing(workingSet, sizeBytes);
            this.server =
                    ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            this.thread =
                    Thread.ofPlatform().daemon().name("faro-bench-socket-sink").unstarted(this);
            thread.start();
        }

        int port() throws IOException {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        @Override
        public void run() {
            try (SocketChannel socket = server.accept()) {
                ByteBuffer ack = ByteBuffer.allocate(8);
                long count = 0;
                while (true) {
                    ByteBuffer chunk = chunks.next();
                    while (chunk.hasRemaining()) {
                        if (socket.read(chunk) < 0) {
                            return; // the initiator closed the stream
                        }
                    }
                    if (chunk.getLong(0) == END_OF_RUN) {
                        ack.clear().putLong(0, count);
                        while (ack.hasRemaining()) {
                            socket.write(ack);
                        }
                        count = 0;
                    } else {
                        count++;
                    }
                }
            } catch (IOException e) {
                if (server.isOpen()) {
                    failure = e;
                }
            }
        }

        /** Stops the sink; rethrows what failed in it. */
        @Override
        public void close() throws IOException, InterruptedException {
            server.close();
            thread.join(10_000);
            if (failure != null) {
                throw new IllegalStateException("the socket sink failed: " + failure, failure);
            }
        }
    }
}
