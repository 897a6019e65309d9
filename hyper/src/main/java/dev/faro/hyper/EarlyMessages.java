package dev.faro.hyper;

import java.util.concurrent.TimeUnit;

/**
 * The received messages a {@link Multiplexer} holds because their exchange is not mapped at this node yet: a peer
 * may send as soon as its own open's gather returned, before this node routed the exchange ({@link
 * ExchangeTable#isEarly}). Held in arrival order; while any is held, every arrival queues behind them, so an
 * exchange's end never passes its data. Each held message is routed once its exchange is mapped (a message waits while
 * an earlier one of the same exchange and peer waits), and dropped when its peer failed or no exchange claimed it
 * within {@link #LIMIT_NANOS} (the open at this node failed after the gather).
 *
 * <p>Network thread only. Data path: allocation-free.
 */
final class EarlyMessages {

    /** How long a message may wait for its exchange to be mapped here before it is dropped. */
    static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** What the multiplexer does with a held message that leaves the list. */
    interface Outlet {
        /** Hands the message to its exchange (its header was checked on arrival). */
        void route(Message message, DecoupledExchange exchange);

        /** Gives up the message: no exchange will claim it. */
        void drop(Message message);

        /** Whether {@code peer}'s connection failed (its held messages are dropped). */
        boolean peerFailed(int peer);
    }

    private final MessagePool pool;
    private final ExchangeTable table;
    /** The held message indexes, in arrival order: the first {@link #count}. */
    private final int[] held;
    /** When each message arrived, by message index. */
    private final long[] since;

    private int count;

    EarlyMessages(MessagePool pool, ExchangeTable table) {
        this.pool = pool;
        this.table = table;
        this.held = new int[pool.size()];
        this.since = new long[pool.size()];
    }

    /** Whether no message is held (an arrival may then be routed at once). */
    boolean isEmpty() {
        return count == 0;
    }

    /** Holds message {@code index}, behind every message held already. */
    void hold(int index) {
        since[index] = System.nanoTime();
        held[count++] = index;
    }

    /**
     * Routes the held messages, in arrival order, whose exchange is mapped now, and drops those that will never be
     * claimed; returns how many left the list.
     */
    int routeMapped(Outlet outlet) {
        if (count == 0) {
            return 0;
        }
        long now = System.nanoTime();
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int index = held[i];
            Message message = pool.message(index);
            int id = MessageDescriptor.exchangeId(message.segment);
            boolean notMapped = table.isEarly(message.peer, id); // before incoming: see isEarly
            DecoupledExchange exchange = table.incoming(message.peer, id);
            if (exchange != null && !heldBefore(kept, message.peer, id)) {
                outlet.route(message, exchange);
            } else if (exchange != null
                    || (notMapped && !outlet.peerFailed(message.peer) && now - since[index] < LIMIT_NANOS)) {
                held[kept++] = index;
            } else {
                outlet.drop(message);
            }
        }
        int work = count - kept;
        count = kept;
        return work;
    }

    /** Whether one of the first {@code kept} held messages is of {@code peer} and exchange id {@code id}. */
    private boolean heldBefore(int kept, int peer, int id) {
        for (int i = 0; i < kept; i++) {
            Message message = pool.message(held[i]);
            if (message.peer == peer && MessageDescriptor.exchangeId(message.segment) == id) {
                return true;
            }
        }
        return false;
    }

    /** Forgets the held messages of {@code peer} (its queue pair is replaced, which posts them again). */
    void forget(int peer) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (pool.message(held[i]).peer != peer) {
                held[kept++] = held[i];
            }
        }
        count = kept;
    }
}
