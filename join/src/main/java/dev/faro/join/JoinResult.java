package dev.faro.join;

/**
 * A join's answer without materialisation (thesis §3.6): the number of matches and the order-independent checksum
 * of the matched rid pairs ({@link dev.faro.join.workload.Tuples#pairHash}).
 */
public record JoinResult(long matches, long checksum) {

    public JoinResult plus(JoinResult other) {
        return new JoinResult(matches + other.matches, checksum + other.checksum);
    }
}
