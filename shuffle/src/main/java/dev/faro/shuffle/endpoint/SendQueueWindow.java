package dev.faro.shuffle.endpoint;

import dev.faro.fabric.RcQueuePair;
import dev.faro.fabric.WorkRequest;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Selective signaling for one RC queue pair's send queue. As in verbs, an unsignaled request keeps its send-queue
 * slot until the completion of a later signaled request is polled; this window signals every
 * {@code signalInterval}-th post (and every post the caller needs a completion for), remembers the post number of
 * each signaled request, and on each polled completion frees the slots up to it. A post that would overflow the
 * send queue is refused, so the caller polls completions and retries instead of getting {@code QUEUE_FULL}.
 *
 * <p>Every request on the queue pair must go through its window. Send completions of one RC queue pair arrive in
 * posting order, so the signaled post numbers form a FIFO.
 *
 * <p>Thread-safe: posts are serialized by the window's lock (so post numbers follow the queue pair's order);
 * {@link #onCompletion()} may come from any polling thread. Data path: allocation-free.
 */
public final class SendQueueWindow {

    private final RcQueuePair queuePair;
    private final int depth;
    private final int signalInterval;
    private final ReentrantLock lock = new ReentrantLock();
    /** Post numbers of signaled requests whose completion was not polled yet, oldest first; guarded by lock. */
    private final long[] signaled;

    private int signaledHead;
    private int signaledCount;
    /** Requests posted so far; guarded by lock. */
    private long posted;

    private long lastSignaled;
    /** Post number up to which slots are free again; written under lock, read racily by {@link #isIdle()}. */
    private volatile long retired;

    private volatile long postedSnapshot;

    /**
     * @param signalInterval at most this many posts in a row go unsignaled; at most the queue pair's send depth, so
     *     a full window always holds a signaled request whose completion frees it
     */
    public SendQueueWindow(RcQueuePair queuePair, int signalInterval) {
        this.queuePair = queuePair;
        this.depth = queuePair.sendQueueDepth();
        if (signalInterval < 1 || signalInterval > depth) {
            throw new IllegalArgumentException("signalInterval must be within [1, send depth]: signalInterval="
                    + signalInterval + ", depth=" + depth);
        }
        this.signalInterval = signalInterval;
        this.signaled = new long[depth];
    }

    /**
     * Posts {@code request}, signaled if {@code signal} or if the interval is up. Returns false, posting nothing,
     * when the send queue is full: poll completions and try again.
     */
    public boolean tryPost(WorkRequest request, boolean signal) {
        lock.lock();
        try {
            if (posted - retired >= depth) {
                return false;
            }
            long number = posted + 1;
            boolean signaledPost = signal || number - lastSignaled >= signalInterval;
            request.signaled(signaledPost);
            queuePair.postSend(request);
            posted = number;
            postedSnapshot = number;
            if (signaledPost) {
                signaled[(signaledHead + signaledCount) % depth] = number;
                signaledCount++;
                lastSignaled = number;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Accounts one successful send completion of this queue pair (in polling order). */
    public void onCompletion() {
        lock.lock();
        try {
            if (signaledCount == 0) {
                throw new IllegalStateException(
                        "a send completion without a signaled request on queue pair " + queuePair.queuePairNumber());
            }
            long number = signaled[signaledHead];
            signaledHead = (signaledHead + 1) % depth;
            signaledCount--;
            if (number > retired) {
                retired = number;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a post would find room now. Approximate: both counts are read without the lock, so another thread may
     * take the room first; {@link #tryPost} decides. Any thread.
     */
    public boolean unsynchronizedHasRoom() {
        return postedSnapshot - retired < depth;
    }

    /**
     * Whether every post has completed and been polled. Only a signaled last post can make a window idle: callers
     * signal the last request they send to a peer.
     */
    public boolean isIdle() {
        return retired == postedSnapshot;
    }

    public RcQueuePair queuePair() {
        return queuePair;
    }

    @Override
    public String toString() {
        return "SendQueueWindow[qpn=" + queuePair.queuePairNumber() + ", posted=" + postedSnapshot + ", retired="
                + retired + "]";
    }
}
