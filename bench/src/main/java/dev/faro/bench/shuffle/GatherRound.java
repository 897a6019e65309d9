package dev.faro.bench.shuffle;

import java.util.Arrays;

/**
 * One all-gather of a case at the coordinator: every node's value (hex) under one key. Each node's driver thread
 * contributes and then waits until all have, the case is abandoned, or its deadline passes. Coordination code; a
 * monitor guards the state.
 */
final class GatherRound {

    private final String key;
    private final String[] values;
    private int contributed;

    GatherRound(String key, int nodes) {
        this.key = key;
        this.values = new String[nodes];
    }

    synchronized void contribute(int node, String value) {
        if (values[node] != null) {
            throw new IllegalStateException("node " + node + " contributed twice to exchange '" + key + "'");
        }
        values[node] = value;
        contributed++;
        notifyAll();
    }

    /**
     * Waits until every node contributed and returns the values by node; returns null when {@code abandoned} turns
     * true (call {@link #wake()} after setting it) or the deadline passes first.
     */
    synchronized String[] await(long deadlineNanos, java.util.function.BooleanSupplier abandoned)
            throws InterruptedException {
        while (contributed < values.length) {
            long leftNanos = deadlineNanos - System.nanoTime();
            if (abandoned.getAsBoolean() || leftNanos <= 0) {
                return null;
            }
            wait(Math.max(1, Math.min(leftNanos / 1_000_000, 1000)));
        }
        return values.clone();
    }

    synchronized void wake() {
        notifyAll();
    }

    @Override
    public synchronized String toString() {
        return "GatherRound[" + key + ", " + contributed + " of " + values.length + ", missing "
                + Arrays.toString(java.util.stream.IntStream.range(0, values.length).filter(i -> values[i] == null)
                        .toArray()) + "]";
    }
}
