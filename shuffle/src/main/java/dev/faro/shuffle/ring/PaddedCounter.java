package dev.faro.shuffle.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Left padding: superclass fields are laid out first, so {@code value} starts at least 128 B into the object. */
abstract class PaddedCounterLeftPadding {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The hot word itself. */
abstract class PaddedCounterValue extends PaddedCounterLeftPadding {
    volatile long value;
}

/** Right padding, so no neighbour in the heap shares {@code value}'s cache lines. */
abstract class PaddedCounterRightPadding extends PaddedCounterValue {
    long p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
}

/**
 * A {@code long} counter on cache lines of its own (padding superclasses, as in Agrona; {@code @Contended} would
 * need JVM flags). Used for ring indexes that several threads update with CAS. Data path: allocation-free.
 */
final class PaddedCounter extends PaddedCounterRightPadding {

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Volatile read. */
    long get() {
        return value;
    }

    /** Atomically adds one and returns the value before. */
    long getAndIncrement() {
        return (long) VALUE.getAndAdd(this, 1L);
    }

    boolean compareAndSet(long expected, long next) {
        return VALUE.compareAndSet(this, expected, next);
    }
}
