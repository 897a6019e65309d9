package dev.faro.zerosided.link;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The packet fabric inside one JVM, for fast tests: links whose datagrams go through bounded per-port queues of
 * preallocated slots instead of sockets. A datagram is copied into the destination's queue on send (as onto a wire)
 * and out of it on receive; a full queue drops it, as a switch port does. Links may be owned by different threads; each
 * port's queue is locked (by its senders and its receiver only), the table of ports is not.
 *
 * <p>Data path: allocation-free after {@link #open()}.
 */
public final class InProcessNetwork {

    /** Datagrams a port's queue holds before it drops. */
    public static final int QUEUE_SLOTS = 2048;

    /** The largest datagram. */
    public static final int SLOT_BYTES = 4200;

    private static final int FIRST_PORT = 40_000;

    private final AtomicInteger nextPort = new AtomicInteger(FIRST_PORT);
    /** Queues by port − {@link #FIRST_PORT}: set by {@link #open()}, cleared on close, read on every send. */
    private final AtomicReferenceArray<Queue> queues = new AtomicReferenceArray<>(4096);

    /** Opens a new link on a fresh port. */
    public PacketLink open() {
        int port = nextPort.getAndIncrement();
        Queue queue = new Queue();
        queues.set(port - FIRST_PORT, queue);
        return new Link(port, queue);
    }

    /** Every send: a volatile read, not the network-wide lock every link's sends would otherwise contend on. */
    private Queue queue(int port) {
        int index = port - FIRST_PORT;
        return index < 0 || index >= queues.length() ? null : queues.get(index);
    }

    private void remove(int port) {
        queues.set(port - FIRST_PORT, null);
    }

    /** One port's bounded queue of datagrams; lock: itself. */
    private static final class Queue {
        private final byte[][] slots = new byte[QUEUE_SLOTS][SLOT_BYTES];
        private final int[] lengths = new int[QUEUE_SLOTS];
        private final int[] sources = new int[QUEUE_SLOTS];
        private long head;
        private long tail;

        synchronized boolean offer(ByteBuffer buffer, int offset, int length, int source) {
            if (tail - head == QUEUE_SLOTS || length > SLOT_BYTES) {
                return false;
            }
            int slot = (int) (tail % QUEUE_SLOTS);
            buffer.get(offset, slots[slot], 0, length);
            lengths[slot] = length;
            sources[slot] = source;
            tail++;
            return true;
        }

        /** Copies the oldest datagram out; returns its source port in the high half and its length in the low. */
        synchronized long poll(ByteBuffer buffer, int offset) {
            if (head == tail) {
                return -1;
            }
            int slot = (int) (head % QUEUE_SLOTS);
            int length = lengths[slot];
            buffer.put(offset, slots[slot], 0, length);
            head++;
            return (long) sources[slot] << 32 | length;
        }
    }

    private final class Link implements PacketLink {
        private final int port;
        private final Queue queue;
        private int lastSource;
        private long dropped;

        Link(int port, Queue queue) {
            this.port = port;
            this.queue = queue;
        }

        @Override
        public int port() {
            return port;
        }

        @Override
        public void send(ByteBuffer buffer, int offset, int length, int destinationPort) {
            Queue destination = queue(destinationPort);
            if (destination == null || !destination.offer(buffer, offset, length, port)) {
                dropped++;
            }
        }

        @Override
        public int receive(ByteBuffer buffer, int offset) {
            long polled = queue.poll(buffer, offset);
            if (polled < 0) {
                return NOTHING;
            }
            lastSource = (int) (polled >>> 32);
            return (int) polled;
        }

        @Override
        public int sourcePort() {
            return lastSource;
        }

        @Override
        public long droppedDatagrams() {
            return dropped;
        }

        @Override
        public void close() {
            remove(port);
        }
    }
}
