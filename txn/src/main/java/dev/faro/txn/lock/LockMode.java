package dev.faro.txn.lock;

/**
 * The six lock modes of multi-level granularity locking (ETH19 Table 2.1, after Gray and Reuter): no lock, intention
 * shared, intention exclusive, shared, shared with intention exclusive, exclusive. The ordinal is the mode's code on
 * the wire and its index in a lock's granted counters.
 *
 * <pre>
 * compatibility (Table 2.1a): may a request of the row's mode join granted locks of the column's mode?
 *          NL  IS  IX  S   SIX X
 *    NL    ✓   ✓   ✓   ✓   ✓   ✓
 *    IS    ✓   ✓   ✓   ✓   ✓   .
 *    IX    ✓   ✓   ✓   .   .   .
 *    S     ✓   ✓   .   ✓   .   .
 *    SIX   ✓   ✓   .   .   .   .
 *    X     ✓   .   .   .   .   .
 * </pre>
 *
 * <p>A set of granted modes that are pairwise compatible has a group mode (Table 2.1b), the strongest of them:
 * {IS} → IS, {IX, IS} → IX, {S, IS} → S, {SIX, IS} → SIX, {X} → X, nothing → NL. A request is compatible with every
 * granted mode exactly when it is compatible with the group mode; {@link #compatibleWithGranted} checks it on a bit
 * set of the granted modes, allocation-free.
 */
public enum LockMode {
    NL,
    IS,
    IX,
    S,
    SIX,
    X;

    /** The number of modes. */
    public static final int COUNT = 6;

    private static final LockMode[] BY_CODE = values();

    /** Bit i of {@code COMPATIBLE[m]} is set when a request of mode m may join a granted lock of mode i. */
    private static final int[] COMPATIBLE = {
        0b111111, // NL: with everything
        0b011111, // IS: all but X
        0b000111, // IX: NL, IS, IX
        0b001011, // S: NL, IS, S
        0b000011, // SIX: NL, IS
        0b000001, // X: NL only
    };

    /** The mode of wire code {@code code} (its ordinal). */
    public static LockMode ofCode(int code) {
        if (code < 0 || code >= COUNT) {
            throw new IllegalArgumentException("lock mode code out of range: " + code);
        }
        return BY_CODE[code];
    }

    /** This mode's bit in a granted-modes set. */
    public int bit() {
        return 1 << ordinal();
    }

    /** Whether a request of this mode may be granted while {@code granted} is held by another transaction. */
    public boolean isCompatibleWith(LockMode granted) {
        return (COMPATIBLE[ordinal()] & granted.bit()) != 0;
    }

    /**
     * Whether a request of this mode may be granted next to every mode in {@code grantedModes}, a bit set of
     * {@link #bit()}s (the non-zero granted counters of a lock).
     */
    public boolean compatibleWithGranted(int grantedModes) {
        return (grantedModes & ~COMPATIBLE[ordinal()]) == 0;
    }

    /** Whether holding this mode also grants everything {@code other} grants (X covers all; SIX covers S and IX). */
    public boolean covers(LockMode other) {
        return switch (this) {
            case NL -> other == NL;
            case IS -> other == NL || other == IS;
            case IX -> other == NL || other == IS || other == IX;
            case S -> other == NL || other == IS || other == S;
            case SIX -> other != X;
            case X -> true;
        };
    }

    /**
     * The group mode of a bit set of granted modes (Table 2.1b): the strongest; NL for the empty set. For a set that is
     * not pairwise compatible (which a correct lock table never holds) it returns the strongest in the order NL < IS <
     * IX, S < SIX < X, S before IX.
     */
    public static LockMode groupMode(int grantedModes) {
        if ((grantedModes & X.bit()) != 0) {
            return X;
        }
        if ((grantedModes & SIX.bit()) != 0) {
            return SIX;
        }
        if ((grantedModes & S.bit()) != 0) {
            return S;
        }
        if ((grantedModes & IX.bit()) != 0) {
            return IX;
        }
        if ((grantedModes & IS.bit()) != 0) {
            return IS;
        }
        return NL;
    }
}
