package dev.faro.cluster.worker;

import dev.faro.fabric.FaroException;
import dev.faro.fabric.bootstrap.PeerExchange;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One task's {@link PeerExchange}, relayed through the coordinator: {@link #allGather} sends a {@code GATHER} and
 * waits for the {@code GATHERED} the coordinator sends every node once all contributed to that key. Several keys may
 * be pending at once, from several threads; a key may be used again once its previous all-gather returned (every
 * node uses keys in the same order).
 *
 * <p>Threads: task threads call {@link #allGather}; the worker's reader thread calls {@link #deliver} and
 * {@link #abort}. Coordination code: a monitor guards the pending map.
 */
final class RelayedPeerExchange implements PeerExchange {

    /** Sends one contribution to the coordinator (the worker's connection). */
    @FunctionalInterface
    interface Sender {
        void sendGather(String key, byte[] value) throws java.io.IOException;
    }

    private final int nodeIndex;
    private final int nodes;
    private final Duration timeout;
    private final Sender sender;

    // Guarded by this.
    private final Map<String, CompletableFuture<byte[][]>> pending = new HashMap<>();
    private String abortReason;

    RelayedPeerExchange(int nodeIndex, int nodes, Duration timeout, Sender sender) {
        this.nodeIndex = nodeIndex;
        this.nodes = nodes;
        this.timeout = timeout;
        this.sender = sender;
    }

    @Override
    public int nodeIndex() {
        return nodeIndex;
    }

    @Override
    public int nodes() {
        return nodes;
    }

    /** True: the coordinator cancels a round's other tasks, interrupting their gathers, when one task fails. */
    @Override
    public boolean endsPeersOnFailure() {
        return true;
    }

    @Override
    public byte[][] allGather(String key, byte[] local) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("exchange key is empty");
        }
        CompletableFuture<byte[][]> answer = new CompletableFuture<>();
        synchronized (this) {
            throwIfAborted(key);
            if (pending.containsKey(key)) {
                throw new IllegalStateException("exchange '" + key + "' is already pending on node " + nodeIndex);
            }
            pending.put(key, answer);
        }
        try {
            sender.sendGather(key, local);
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.io.IOException e) {
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "node " + nodeIndex + ": exchange '" + key + "' could not reach the coordinator: " + e.getMessage(),
                    e);
        } catch (TimeoutException e) {
            throw new FaroException(
                    FaroException.Category.TIMEOUT,
                    "node " + nodeIndex + ": exchange '" + key + "' got no answer from the coordinator within "
                            + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            synchronized (this) {
                throwIfAborted(key); // a cancel interrupts the waiter too: report the cancel's reason
            }
            throw new FaroException(
                    FaroException.Category.NETWORK,
                    "node " + nodeIndex + ": interrupted during" + " exchange '" + key + "'",
                    e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof FaroException faro) {
                throw new FaroException(faro.category(), faro.getMessage(), faro);
            }
            throw new IllegalStateException(e.getCause());
        } finally {
            synchronized (this) {
                pending.remove(key, answer);
            }
        }
    }

    private void throwIfAborted(String key) {
        if (abortReason != null) {
            throw aborted(key);
        }
    }

    private FaroException aborted(String key) {
        return new FaroException(
                FaroException.Category.NETWORK,
                "node " + nodeIndex + ": exchange '" + key + "' abandoned: " + abortReason);
    }

    /** The coordinator's {@code GATHERED}: every node's contribution, by node. Reader thread. */
    void deliver(String key, byte[][] values) {
        CompletableFuture<byte[][]> answer;
        synchronized (this) {
            answer = pending.get(key);
        }
        if (answer == null) {
            return; // the waiter timed out already
        }
        if (values.length != nodes) {
            answer.completeExceptionally(new FaroException(
                    FaroException.Category.NETWORK,
                    "exchange '" + key + "' carries " + values.length + " values for " + nodes + " nodes"));
        } else {
            answer.complete(values);
        }
    }

    /** The task was cancelled: fails the pending and every later all-gather with {@code NETWORK}. Reader thread. */
    void abort(String reason) {
        Map<String, CompletableFuture<byte[][]>> waiting;
        synchronized (this) {
            if (abortReason != null) {
                return;
            }
            abortReason = reason;
            waiting = Map.copyOf(pending);
        }
        waiting.forEach((key, answer) -> answer.completeExceptionally(aborted(key)));
    }
}
