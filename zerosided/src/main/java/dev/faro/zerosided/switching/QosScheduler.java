package dev.faro.zerosided.switching;

/**
 * Per-flow QoS weights for the consumers' switch threads (paper §5.2 "fine-grained quality of service", Fig. 11):
 * start-time fair queuing at the granularity of transfers. Each switch thread has a virtual byte count, charged
 * {@code bytes / weight} of its flow per completed transfer; a thread may start a transfer only while its virtual
 * count is within one batch of the smallest among the threads that are backlogged (their last pass found items to move
 * and room for them). Backlog is a state, not a time, so a pause of the switch's thread changes nothing. Backlogged flows therefore share the switch in proportion to their weights, whatever
 * limits them; a thread that was idle rejoins at the current minimum instead of claiming its idle time. A weight
 * change evens every virtual count, so the new shares apply from the next transfers. The PUs are not told.
 *
 * <p>Off (every start allowed) until the control plane sets a weight. Data path: allocation-free; O(threads) per
 * decision. Runs on the switch's loop thread.
 */
final class QosScheduler {

    private final SwitchRegisters r;
    private final double[] weight = new double[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    private final double[] virtualBytes = new double[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    private final boolean[] backlogged = new boolean[ZeroSidedSwitch.MAXIMUM_ENDPOINTS];
    private final long quantumBytes;
    private boolean enabled;

    QosScheduler(SwitchRegisters registers, long quantumBytes) {
        this.r = registers;
        this.quantumBytes = quantumBytes;
        java.util.Arrays.fill(weight, 1.0);
    }

    /** Whether switch thread {@code thread}, which has items to move, may start a transfer now. */
    boolean mayStart(int thread) {
        if (!enabled) {
            return true;
        }
        boolean wasBacklogged = backlogged[thread];
        backlogged[thread] = true;
        double minimum = Double.POSITIVE_INFINITY;
        for (int other = 0; other < r.endpointCount; other++) {
            if (other != thread
                    && backlogged[other]
                    && r.producersOf[other] != null
                    && r.threadKind[other] == SwitchRegisters.CONSUMER_THREAD
                    && (r.threadState[other] == ZeroSidedSwitch.THREAD_IDLE
                            || r.threadState[other] == ZeroSidedSwitch.THREAD_BUSY)) {
                minimum = Math.min(minimum, virtualBytes[other]);
            }
        }
        if (minimum == Double.POSITIVE_INFINITY) {
            return true;
        }
        if (!wasBacklogged) {
            virtualBytes[thread] = Math.max(virtualBytes[thread], minimum);
        }
        return virtualBytes[thread] <= minimum + quantumBytes;
    }

    /** Switch thread {@code thread} found nothing to move (no items, or no room): it stops competing. */
    void idle(int thread) {
        backlogged[thread] = false;
    }

    /** Charges a completed transfer of {@code bytes} to {@code thread}. */
    void charge(int thread, long bytes) {
        if (enabled) {
            virtualBytes[thread] += bytes / weight[r.threadFlow[thread]];
        }
    }

    /** Sets flow {@code flow}'s weight and evens the virtual counts. */
    void setWeight(int flow, double value) {
        weight[flow] = value;
        enabled = true;
        java.util.Arrays.fill(virtualBytes, 0);
    }
}
