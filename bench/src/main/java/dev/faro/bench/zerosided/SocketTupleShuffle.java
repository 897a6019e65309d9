package dev.faro.bench.zerosided;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * The CPU-driven baselines of the N:M shuffle (SIGMOD24 Fig. 9's TCP and MPI, digest V5 (c) and (d)), over TCP on
 * 127.0.0.1, one connection per producer-consumer pair: the producer threads themselves partition tuples into a 64 KiB
 * buffer per consumer and write it out (the CPU drives every byte, and batching is at the source).
 *
 * <ul>
 *   <li>{@link Mode#STREAMING} ("TCP"): a buffer is written when full; consumers read whatever arrived, from every
 *       connection in turn;
 *   <li>{@link Mode#PHASED} ("MPI-like", an {@code MPI_Alltoallv} per round): each round every producer partitions
 *       the next 64 KiB per consumer of its tuples, sends every consumer its part followed by a round mark, and
 *       everyone waits at a barrier until every consumer has read the round from every producer; no overlap of
 *       producing and moving.
 * </ul>
 *
 * <p>Coordination code around data-path loops (allocation-free per tuple).
 */
final class SocketTupleShuffle implements TupleShuffle {

    enum Mode {
        STREAMING,
        PHASED
    }

    static final String TCP = "TCP";
    static final String MPI_LIKE = "MPI-like";

    private static final long ROUND_KEY = Long.MIN_VALUE + 1;
    private static final int BUFFER_BYTES = 64 << 10;
    private static final long BARRIER_TIMEOUT_SECONDS = 60;

    private final Mode mode;
    private final int consumers;

    SocketTupleShuffle(Mode mode, int consumers) {
        this.mode = mode;
        this.consumers = consumers;
    }

    @Override
    public String name() {
        return mode == Mode.STREAMING ? TCP : MPI_LIKE;
    }

    @Override
    public Result run(int producers, int tupleBytes, long tuplesPerProducer, Generator generator, Sink[] sinks)
            throws Exception {
        List<AutoCloseable> open = new ArrayList<>();
        try {
            InetAddress loopback = InetAddress.getLoopbackAddress();
            ServerSocketChannel[] servers = new ServerSocketChannel[consumers];
            for (int c = 0; c < consumers; c++) {
                servers[c] = ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), producers);
                open.add(servers[c]);
            }
            SocketChannel[][] out = new SocketChannel[producers][consumers];
            SocketChannel[][] in = new SocketChannel[consumers][producers];
            ByteBuffer id = ByteBuffer.allocate(Integer.BYTES);
            for (int p = 0; p < producers; p++) {
                for (int c = 0; c < consumers; c++) {
                    out[p][c] = SocketChannel.open(servers[c].getLocalAddress());
                    open.add(out[p][c]);
                    out[p][c].write(id.clear().putInt(0, p));
                    out[p][c].configureBlocking(false);
                }
            }
            for (int c = 0; c < consumers; c++) {
                for (int i = 0; i < producers; i++) {
                    SocketChannel accepted = servers[c].accept();
                    open.add(accepted);
                    id.clear();
                    while (id.hasRemaining()) {
                        accepted.read(id);
                    }
                    in[c][id.getInt(0)] = accepted;
                    accepted.configureBlocking(false);
                }
            }
            CyclicBarrier barrier = mode == Mode.PHASED ? new CyclicBarrier(producers + consumers) : null;
            long rounds = (tuplesPerProducer * tupleBytes + (long) BUFFER_BYTES * consumers - 1)
                    / ((long) BUFFER_BYTES * consumers);
            long perRound = rounds == 0 ? 1 : (tuplesPerProducer + rounds - 1) / rounds;
            long[][] doneAt = new long[consumers][producers];
            ShuffleThreads threads = new ShuffleThreads();
            long start = System.nanoTime();
            threads.start("tcp-consumer", consumers, c -> {
                if (mode == Mode.PHASED) {
                    consumePhased(threads, in[c], tupleBytes, sinks[c], doneAt[c], start, barrier);
                } else {
                    consumeStreaming(threads, in[c], tupleBytes, sinks[c], doneAt[c], start);
                }
            });
            threads.start(
                    "tcp-producer",
                    producers,
                    p -> produce(threads, out[p], p, tupleBytes, tuplesPerProducer, perRound, generator, barrier));
            threads.join();
            return new Result(System.nanoTime() - start, ZeroSidedTupleShuffle.latest(doneAt, producers));
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        }
    }

    private void produce(
            ShuffleThreads threads,
            SocketChannel[] out,
            int producer,
            int tupleBytes,
            long tuples,
            long perRound,
            Generator generator,
            CyclicBarrier barrier)
            throws Exception {
        ByteBuffer[] buffers = new ByteBuffer[consumers];
        for (int c = 0; c < consumers; c++) {
            buffers[c] =
                    ByteBuffer.allocateDirect(BUFFER_BYTES + 2 * tupleBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        long i = 0;
        while (i < tuples) {
            long roundEnd = barrier == null ? tuples : Math.min(tuples, i + perRound);
            for (; i < roundEnd; i++) {
                long key = generator.key(producer, i);
                ByteBuffer buffer = buffers[TupleShuffle.consumerOf(key, consumers)];
                append(buffer, tupleBytes, key, generator.payload(producer, i));
                if (buffer.position() >= BUFFER_BYTES) { // a round's part larger than average goes out in pieces
                    writeOut(threads, out[TupleShuffle.consumerOf(key, consumers)], buffer);
                }
            }
            if (barrier != null && i < tuples) {
                for (int c = 0; c < consumers; c++) {
                    append(buffers[c], tupleBytes, ROUND_KEY, producer);
                    writeOut(threads, out[c], buffers[c]);
                }
                barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        }
        for (int c = 0; c < consumers; c++) {
            append(buffers[c], tupleBytes, END_KEY, producer);
            writeOut(threads, out[c], buffers[c]);
        }
        if (barrier != null) {
            barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static void append(ByteBuffer buffer, int tupleBytes, long key, long payload) {
        int at = buffer.position();
        buffer.putLong(at, key).putLong(at + Long.BYTES, payload).position(at + tupleBytes);
    }

    private static void writeOut(ShuffleThreads threads, SocketChannel channel, ByteBuffer buffer) throws IOException {
        buffer.flip();
        int idle = 0;
        while (buffer.hasRemaining()) {
            if (channel.write(buffer) > 0) {
                if (idle > 0) {
                    threads.progress();
                }
                idle = 0;
            } else {
                idle = threads.idle(idle);
            }
        }
        buffer.clear();
    }

    private void consumeStreaming(
            ShuffleThreads threads, SocketChannel[] in, int tupleBytes, Sink sink, long[] doneAt, long start)
            throws IOException {
        ByteBuffer[] buffers = buffers(in.length, tupleBytes);
        boolean[] ended = new boolean[in.length];
        int open = in.length;
        int idle = 0;
        while (open > 0) {
            boolean moved = false;
            for (int p = 0; p < in.length; p++) {
                if (ended[p] || in[p].read(buffers[p]) <= 0) {
                    continue;
                }
                moved = true;
                if (drain(buffers[p], tupleBytes, sink, doneAt, start)) {
                    ended[p] = true;
                    open--;
                }
            }
            if (moved) {
                if (idle > 0) {
                    threads.progress();
                }
                idle = 0;
            } else {
                idle = threads.idle(idle);
            }
        }
    }

    private void consumePhased(
            ShuffleThreads threads,
            SocketChannel[] in,
            int tupleBytes,
            Sink sink,
            long[] doneAt,
            long start,
            CyclicBarrier barrier)
            throws Exception {
        ByteBuffer[] buffers = buffers(in.length, tupleBytes);
        boolean ended = false;
        int idle = 0;
        while (!ended) {
            for (int p = 0; p < in.length; p++) {
                long mark;
                // what an earlier read brought beyond the last mark comes first
                while ((mark = drainRound(buffers[p], tupleBytes, sink, doneAt, start)) == 0) {
                    int read = in[p].read(buffers[p]);
                    if (read < 0) {
                        throw new IllegalStateException("producer " + p + " closed its connection early");
                    }
                    if (read == 0) {
                        idle = threads.idle(idle);
                    } else {
                        if (idle > 0) {
                            threads.progress();
                        }
                        idle = 0;
                    }
                }
                ended = mark == END_KEY;
            }
            barrier.await(BARRIER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private static ByteBuffer[] buffers(int count, int tupleBytes) {
        ByteBuffer[] buffers = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
            buffers[i] =
                    ByteBuffer.allocateDirect(BUFFER_BYTES + 2 * tupleBytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        return buffers;
    }

    /** Hands the buffer's whole tuples to the sink; true when the producer's end was among them. */
    private static boolean drain(ByteBuffer buffer, int tupleBytes, Sink sink, long[] doneAt, long start) {
        return drainRound(buffer, tupleBytes, sink, doneAt, start) == END_KEY;
    }

    /** As {@link #drain}; returns the mark that stopped it ({@link #END_KEY} or the round mark), or 0. */
    private static long drainRound(ByteBuffer buffer, int tupleBytes, Sink sink, long[] doneAt, long start) {
        buffer.flip();
        long mark = 0;
        while (mark == 0 && buffer.remaining() >= tupleBytes) {
            int at = buffer.position();
            long key = buffer.getLong(at);
            long payload = buffer.getLong(at + Long.BYTES);
            buffer.position(at + tupleBytes);
            if (key == END_KEY) {
                doneAt[(int) payload] = System.nanoTime() - start;
                mark = END_KEY;
            } else if (key == ROUND_KEY) {
                mark = ROUND_KEY;
            } else {
                sink.accept(key, payload);
            }
        }
        buffer.compact();
        return mark;
    }
}
