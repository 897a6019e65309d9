package dev.faro.fabric;

/**
 * Seeded faults a provider applies to UD sends, so that the software protocols above (message counting, timeouts)
 * can be tested deterministically. Off by default ({@link #NONE}). RC is never affected.
 *
 * @param seed seeds the pseudo-random choices; the same seed and the same sequence of sends give the same faults
 * @param lossRate probability that a send is silently dropped
 * @param reorderRate probability that a send is held back and delivered after the next send to the same queue pair
 * @param duplicateRate probability that a send is delivered twice
 */
public record FaultInjection(long seed, double lossRate, double reorderRate, double duplicateRate) {

    /** No faults. */
    public static final FaultInjection NONE = new FaultInjection(0, 0, 0, 0);

    public FaultInjection {
        checkRate("lossRate", lossRate);
        checkRate("reorderRate", reorderRate);
        checkRate("duplicateRate", duplicateRate);
    }

    public boolean isEnabled() {
        return lossRate > 0 || reorderRate > 0 || duplicateRate > 0;
    }

    private static void checkRate(String name, double rate) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new FaroException(FaroException.Category.INVALID_ARGUMENT, name + " must be within [0, 1]: " + rate);
        }
    }
}
