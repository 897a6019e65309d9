package dev.faro.zerosided.packet;

/**
 * Arithmetic on 24-bit packet sequence numbers, which wrap around from {@code 0xFFFFFF} to 0. Two PSNs are compared
 * by their signed 24-bit distance, so the comparison is right as long as they are less than 2^23 apart (RC keeps far
 * fewer packets outstanding).
 */
public final class Psn {

    /** PSNs are taken modulo this. */
    public static final int MODULUS = 1 << 24;

    /** The largest PSN. */
    public static final int MASK = MODULUS - 1;

    private Psn() {}

    /** {@code psn + count}, wrapped. */
    public static int add(int psn, int count) {
        return (psn + count) & MASK;
    }

    /**
     * The signed distance {@code a - b}, in [-2^23, 2^23): negative when {@code a} comes before {@code b}.
     */
    public static int distance(int a, int b) {
        return ((a - b) << 8) >> 8;
    }

    /** Whether {@code psn} lies in the {@code count} PSNs starting at {@code first} (wrap-around aware). */
    public static boolean inRange(int psn, int first, int count) {
        int offset = distance(psn, first);
        return offset >= 0 && offset < count;
    }
}
