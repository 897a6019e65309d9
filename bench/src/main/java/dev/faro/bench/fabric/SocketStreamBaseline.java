package dev.faro.bench.fabric;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteOrder;

/**
 * The baseline of the {@code net} provider's bandwidth: a plain blocking {@link Socket} stream over loopback between
 * the two workers, what an application without a fabric would write. The initiator writes {@code size}-byte chunks
 * for the run's duration; the target's {@link Sink} reads them whole. Each chunk starts with its sequence number; a
 * chunk numbered -1 ends the run, and the clock stops when the sink's 8-byte acknowledgment of it arrives, so a run
 * counts only bytes the target has read, as a fabric run counts only completed requests.
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

    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long END_OF_RUN = -1;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final byte[] chunk;

    /** Connects to the target's sink at {@code port} on loopback, writing {@code sizeBytes} per write. */
    SocketStreamBaseline(int port, int sizeBytes) throws IOException {
        this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        this.out = socket.getOutputStream();
        this.in = new DataInputStream(socket.getInputStream());
        this.chunk = new byte[Math.max(8, sizeBytes)];
        for (int i = 8; i < chunk.length; i++) {
            chunk[i] = (byte) (i * 31);
        }
    }

    /** Streams chunks for {@code durationNs}, then ends the run and waits for the sink's acknowledgment. */
    Measurement measure(long durationNs) throws IOException {
        long sequence = 0;
        long startNs = System.nanoTime();
        long deadlineNs = startNs + durationNs;
        do {
            LONG.set(chunk, 0, sequence++);
            out.write(chunk);
        } while (System.nanoTime() - deadlineNs < 0);
        LONG.set(chunk, 0, END_OF_RUN);
        out.write(chunk);
        out.flush();
        long acknowledged = in.readLong();
        long nanos = System.nanoTime() - startNs;
        if (acknowledged != sequence) {
            throw new IllegalStateException("the socket sink read " + acknowledged + " chunks, " + sequence
                    + " were written");
        }
        long messages = sequence + 1;
        return new Measurement(messages * chunk.length, messages, nanos, 0, 0);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /**
     * The target's side: accepts one connection on loopback and reads chunks whole on its own thread, acknowledging
     * each end-of-run chunk with the number of data chunks read in that run.
     */
    static final class Sink implements Runnable, AutoCloseable {

        private final ServerSocket server;
        private final int sizeBytes;
        private final Thread thread;
        private volatile Throwable failure;

        Sink(int sizeBytes) throws IOException {
            this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            this.sizeBytes = Math.max(8, sizeBytes);
            this.thread = Thread.ofPlatform().daemon().name("faro-bench-socket-sink").unstarted(this);
            thread.start();
        }

        int port() {
            return ((InetSocketAddress) server.getLocalSocketAddress()).getPort();
        }

        @Override
        public void run() {
            byte[] chunk = new byte[sizeBytes];
            try (Socket socket = server.accept()) {
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                long chunks = 0;
                while (in.readNBytes(chunk, 0, sizeBytes) == sizeBytes) {
                    if ((long) LONG.get(chunk, 0) == END_OF_RUN) {
                        byte[] ack = new byte[8];
                        java.nio.ByteBuffer.wrap(ack).putLong(chunks);
                        out.write(ack);
                        out.flush();
                        chunks = 0;
                    } else {
                        chunks++;
                    }
                }
            } catch (IOException e) {
                if (!server.isClosed()) {
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
