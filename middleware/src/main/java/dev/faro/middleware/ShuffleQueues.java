package dev.faro.middleware;

import java.lang.foreign.MemorySegment;

/**
 * One worker's shuffle queues (DAIS16 §2.1): send rows of a shuffle operator to any worker, end the operator, and
 * retrieve the rows other workers sent to this one, per operator. Implemented over the fabric by
 * {@link MiddlewareWorker} and over non-blocking sockets by {@link NioWorker} (the paper's baseline), so a
 * benchmark or an exchange transport runs unchanged on either.
 *
 * <p>Operator ids run from 0 to {@link #MAX_OPERATORS} − 1; an id may be reused once every worker has seen
 * {@link #END} for it. Confined to one thread at a time.
 */
public sealed interface ShuffleQueues permits MiddlewareWorker, NioWorker {

    /** Operator ids run from 0 to this − 1. */
    int MAX_OPERATORS = 64;
    /** The worker rows are gathered to. */
    int MASTER = 0;
    /** {@link #poll} found no row. */
    int NONE = -1;
    /** Every worker ended the operator and all its rows were returned. */
    int END = -2;

    /** This worker's global id: process × workersPerProcess + local index. */
    int id();

    /** Workers in the cluster. */
    int workers();

    /** Copies a row into the queue towards {@code destination}; blocks while that queue is full. */
    void send(int destination, int operator, MemorySegment row, long offset, int length);

    /** {@link #send} of an 8-byte row. */
    void sendLong(int destination, int operator, long value);

    /** Pushes out everything queued so far, whatever the write threshold. */
    void flush();

    /** Ends this worker's rows of {@code operator} towards every worker, then flushes. */
    void endOfStream(int operator);

    /**
     * The next row of {@code operator} for this worker, copied into {@code into}, without blocking: its length,
     * {@link #NONE}, or {@link #END} once every worker ended the operator and all its rows were returned.
     */
    int poll(int operator, MemorySegment into);

    /** Like {@link #poll}, but blocks until a row or the end arrives. */
    int take(int operator, MemorySegment into);

    /**
     * {@link #send} without waiting: appends the row if the queue towards {@code destination} has room (writing out
     * what is due), else pushes that queue out and returns false (nothing appended). For callers that wait their own
     * way (the exchange transport).
     */
    boolean trySend(int destination, int operator, MemorySegment row, long offset, int length);

    /**
     * Ends this worker's rows of {@code operator} towards {@code destination} only, without waiting, and pushes that
     * queue out; false when it has no room (nothing appended).
     */
    boolean tryEndOfStream(int destination, int operator);

    /**
     * Pushes out every outgoing queue whatever the threshold and returns the space already read to its senders, so
     * that nothing this worker holds keeps a peer waiting; reads nothing new (a thread waiting to send leaves the
     * incoming rows to the readers, so that rows never pile up in the demux queues faster than they are taken).
     */
    void push();

    /**
     * {@link #poll(int, MemorySegment)} for an operator whose rows come from fewer senders than every worker: it
     * ends once {@code expectedEnds} end-of-stream records of it arrived at this worker.
     */
    int poll(int operator, MemorySegment into, int expectedEnds);

    /** Gathers a row to the {@link #MASTER} worker. */
    default void gatherLong(int operator, long value) {
        sendLong(MASTER, operator, value);
    }

    /** Sends an 8-byte row to every worker, this one included. */
    default void broadcastLong(int operator, long value) {
        for (int destination = 0; destination < workers(); destination++) {
            sendLong(destination, operator, value);
        }
    }

    /** Reads an 8-byte row returned into {@code into} by {@link #poll} or {@link #take}. */
    static long longAt(MemorySegment into) {
        return into.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }
}
