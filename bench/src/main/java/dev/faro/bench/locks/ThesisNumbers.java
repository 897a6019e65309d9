package dev.faro.bench.locks;

import java.util.List;

/**
 * The published figures of ETH19 chapter 5 that {@code faro bench locks} prints beside its own (Cray XC40, Aries
 * network, 36 cores per node; see the digest, section 6.6 and 5.4).
 */
final class ThesisNumbers {

    /** Table 5.1's remote-lock probabilities, in percent. */
    static final List<Double> REMOTE_PERCENT = List.of(0.0, 1.0, 5.0, 10.0, 25.0, 50.0);

    /** Table 5.1: predicted execution time per transaction, µs. */
    static final List<Double> PREDICTED_MICROS = List.of(67.500, 68.833, 73.511, 78.236, 88.521, 101.992);

    /** Table 5.1: measured throughput with 2,520 concurrent transactions, M tx/s. */
    static final List<Double> MEASURED_2520 = List.of(39.39, 36.26, 30.19, 26.47, 19.94, 13.99);

    /** Table 5.1: predicted throughput with 2,520 concurrent transactions, M tx/s. */
    static final List<Double> PREDICTED_2520 = List.of(37.33, 36.61, 34.28, 32.21, 28.47, 24.71);

    /** Fig. 5.6: mean lock acquisition, µs. */
    static final double LOCK_MICROS = 2.8;

    /** Fig. 5.6: time in the waiting group per request, µs. */
    static final double QUEUE_MICROS = 0.13;

    /** Fig. 5.6: server processing per request, µs. */
    static final double PROCESSING_MICROS = 0.38;

    /** Fig. 5.6: one 2PC vote, µs. */
    static final double VOTE_MICROS = 8.5;

    /** The Aries network's round trip the issue compares against (about 1 µs). */
    static final double NETWORK_ROUND_TRIP_MICROS = 1.0;

    /** §5.4.2: TPC-C at 140 nodes, M tx/s. */
    static final double SERIALIZABLE_MTPS = 13.6;

    static final double READ_COMMITTED_MTPS = 24.5;

    static final double NEW_ORDER_MTPS = 5.9;

    /** §5.4.2: lock requests per second at 140 nodes, both isolation levels, M/s (a lower bound: "over 800"). */
    static final double LOCK_REQUESTS_MPS = 800;

    /** §5.4.1: locks per transaction in the MySQL traces. */
    static final double SERIALIZABLE_LOCKS = 53.2;

    static final double READ_COMMITTED_LOCKS = 27.9;

    /** §5.4.2: lock-server cores of 36 per node, and the serializable TPC-C throughput, M tx/s. */
    static final List<Integer> SERVER_CORES = List.of(6, 12, 18);

    static final List<Double> SERVER_CORES_MTPS = List.of(4.72, 10.2, 13.6);

    /** Fig. 5.7b: execution time at 50 % remote over 0 %. */
    static final double SLOWDOWN_AT_50_PERCENT = 2.8;

    private ThesisNumbers() {}

    /** Table 5.1's value for {@code percent}, or NaN when the thesis has no such column. */
    static double at(List<Double> values, double percent) {
        int index = REMOTE_PERCENT.indexOf(percent);
        return index < 0 ? Double.NaN : values.get(index);
    }
}
