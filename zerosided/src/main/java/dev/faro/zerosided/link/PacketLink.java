package dev.faro.zerosided.link;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * One attachment point of the packet fabric: sends datagrams to other attachment points by port and receives the ones
 * sent to it. Unreliable and unordered, like UDP (and like the Ethernet under RoCE): a datagram may be lost,
 * duplicated, delayed or reordered, and a receiver that does not keep up loses datagrams.
 *
 * <p>Owned by one thread (the agent that polls it): {@link #send} and {@link #receive} are not thread-safe. Data path:
 * implementations allocate nothing per datagram.
 */
public interface PacketLink extends AutoCloseable {

    /** Returned by {@link #receive} when no datagram is waiting. */
    int NOTHING = -1;

    /** This attachment point's port: its address on the fabric. */
    int port();

    /**
     * Sends the {@code length} bytes at {@code offset} of {@code buffer} to {@code destinationPort}; the buffer may be
     * reused at once. A datagram that cannot be sent (the destination is gone) is dropped and counted, as a network
     * drops it.
     */
    void send(ByteBuffer buffer, int offset, int length, int destinationPort);

    /**
     * Copies the next waiting datagram to {@code offset} of {@code buffer} without blocking.
     *
     * @return its length, or {@link #NOTHING}; {@link #sourcePort()} then names its sender
     */
    int receive(ByteBuffer buffer, int offset);

    /**
     * Waits, when its owner is idle, until a datagram may be waiting or about {@code timeoutNanos} passed, whichever is
     * first (it may also return early). The default parks for the timeout; a link on a real socket waits on the socket,
     * so the kernel wakes its owner as soon as a datagram arrives instead of at the end of a timer.
     */
    default void awaitDatagram(long timeoutNanos) {
        LockSupport.parkNanos(timeoutNanos);
    }

    /**
     * Starts a burst: until {@link #endBurst()}, the wake-ups this link's sends owe receivers that sleep are held back,
     * so that an agent sending many datagrams in one duty cycle wakes each receiver once, after them, rather than at
     * its first datagram (a receiver woken on the sender's CPU would take that CPU for one datagram at a time). Links
     * whose receivers are not woken by senders ignore it.
     */
    default void beginBurst() {}

    /** Ends a burst ({@link #beginBurst()}): issues the wake-ups held back. */
    default void endBurst() {}

    /** The sender of the datagram the last successful {@link #receive} returned. */
    int sourcePort();

    /** Datagrams dropped by this link so far (send failures, full queues, injected loss). */
    long droppedDatagrams();

    @Override
    void close();
}
