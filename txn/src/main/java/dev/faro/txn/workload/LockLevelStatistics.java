package dev.faro.txn.workload;

import java.util.Arrays;
import java.util.List;

/**
 * Lock requests split by the workload's lock levels ({@link Workload#lockLevels()}, e.g. TPC-C's table intention
 * locks, warehouse and district rows, other rows): per level the requests, how many went to another node, how many
 * waited in a server's queue, and the summed latency, queue time and worst latency. It answers where a workload's lock
 * time goes (why one isolation level's locks are slower than another's), which the agent's totals cannot.
 *
 * <p>Data path: {@link #record} is allocation-free; one instance per agent thread; {@link #add} and {@link #values}
 * merge copies for reports (coordination code).
 */
public final class LockLevelStatistics {

    /** Counters per level, in this order. */
    public static final List<String> FIELDS =
            List.of("requests", "remote", "queued", "denied", "slow", "latencyNs", "queuedNs", "maxLatencyNs");

    /**
     * A request answered later than this is "slow": on a 2-core host shared by every role, more than a spinning
     * agent's wait, so the agent parked or a thread it needed was descheduled.
     */
    public static final long SLOW_NS = 20_000;

    private static final int REQUESTS = 0;
    private static final int REMOTE = 1;
    private static final int QUEUED = 2;
    private static final int DENIED = 3;
    private static final int SLOW = 4;
    private static final int LATENCY = 5;
    private static final int QUEUED_NS = 6;
    private static final int MAX = 7;

    private final int levels;
    private final long[] counters;

    public LockLevelStatistics(int levels) {
        if (levels < 1) {
            throw new IllegalArgumentException("levels must be positive: " + levels);
        }
        this.levels = levels;
        this.counters = new long[levels * FIELDS.size()];
    }

    public int levels() {
        return levels;
    }

    /** Counts one lock request of {@code level}. */
    public void record(int level, boolean remote, boolean granted, long latencyNs, long queuedNs) {
        int base = level * FIELDS.size();
        counters[base + REQUESTS]++;
        if (remote) {
            counters[base + REMOTE]++;
        }
        if (queuedNs > 0) {
            counters[base + QUEUED]++;
        }
        if (!granted) {
            counters[base + DENIED]++;
        }
        if (latencyNs > SLOW_NS) {
            counters[base + SLOW]++;
        }
        counters[base + LATENCY] += latencyNs;
        counters[base + QUEUED_NS] += queuedNs;
        counters[base + MAX] = Math.max(counters[base + MAX], latencyNs);
    }

    public void reset() {
        Arrays.fill(counters, 0);
    }

    /** Adds {@code other}'s counts (the maxima by maximum). */
    public void add(LockLevelStatistics other) {
        if (other.levels != levels) {
            throw new IllegalArgumentException(other.levels + " levels added to " + levels);
        }
        for (int i = 0; i < counters.length; i++) {
            counters[i] = i % FIELDS.size() == MAX
                    ? Math.max(counters[i], other.counters[i])
                    : counters[i] + other.counters[i];
        }
    }

    /** Every counter, level by level in the order of {@link #FIELDS} (for the wire). */
    public long[] values() {
        return counters.clone();
    }

    /** Statistics from {@link #values()}. */
    public static LockLevelStatistics of(long[] values) {
        if (values.length == 0 || values.length % FIELDS.size() != 0) {
            throw new IllegalArgumentException("not whole levels: " + values.length + " values");
        }
        LockLevelStatistics statistics = new LockLevelStatistics(values.length / FIELDS.size());
        System.arraycopy(values, 0, statistics.counters, 0, values.length);
        return statistics;
    }

    public long requests(int level) {
        return counters[level * FIELDS.size() + REQUESTS];
    }

    public long remote(int level) {
        return counters[level * FIELDS.size() + REMOTE];
    }

    /** Requests of {@code level} that waited in a queue before their answer. */
    public long queued(int level) {
        return counters[level * FIELDS.size() + QUEUED];
    }

    /** Requests of {@code level} answered after more than {@link #SLOW_NS}. */
    public long slow(int level) {
        return counters[level * FIELDS.size() + SLOW];
    }

    public long denied(int level) {
        return counters[level * FIELDS.size() + DENIED];
    }

    /** Mean latency of {@code level}'s requests, µs (0 when none). */
    public double meanLatencyMicros(int level) {
        return micros(counters[level * FIELDS.size() + LATENCY], requests(level));
    }

    /** Mean queue time of {@code level}'s requests, µs (0 when none). */
    public double meanQueuedMicros(int level) {
        return micros(counters[level * FIELDS.size() + QUEUED_NS], requests(level));
    }

    /** Summed latency of {@code level}'s requests, µs. */
    public double totalLatencyMicros(int level) {
        return counters[level * FIELDS.size() + LATENCY] / 1e3;
    }

    public double maxLatencyMicros(int level) {
        return counters[level * FIELDS.size() + MAX] / 1e3;
    }

    private static double micros(long ns, long count) {
        return count == 0 ? 0 : ns / 1e3 / count;
    }
}
