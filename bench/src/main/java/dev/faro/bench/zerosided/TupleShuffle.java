package dev.faro.bench.zerosided;

/**
 * A way to move tuples from P producer threads to C consumer threads by key (the N:M key-based shuffle of SIGMOD24
 * §5.1, Figs. 5a, 9 and 15): the switch ({@link ZeroSidedTupleShuffle}) or a CPU-driven baseline ({@link
 * SocketTupleShuffle}). A tuple is {@code tupleBytes} long, its first word the key and its second the payload (the
 * rest travels as padding); tuple {@code i} of producer {@code p} goes to consumer {@link #consumerOf}(key, C). Every
 * implementation ends with every tuple handed exactly once to its consumer's {@link Sink}.
 *
 * <p>Coordination code around data-path loops (allocation-free per tuple).
 */
interface TupleShuffle {

    /** The word that marks a producer's end in a stream; no generated key equals it. */
    long END_KEY = Long.MIN_VALUE;

    /** The series name in tables and CSV. */
    String name();

    /**
     * Moves every producer's {@code tuplesPerProducer} tuples; returns once every consumer has seen every producer's
     * end.
     *
     * @throws IllegalStateException when a transfer fails or no progress is made for 30 s
     */
    Result run(int producers, int tupleBytes, long tuplesPerProducer, Generator generator, Sink[] sinks)
            throws Exception;

    /** What a run took: its time, and when each producer's last tuple reached the last of its consumers. */
    record Result(long nanos, long[] producerDoneNanos) {

        /** (latest − earliest) producer end ÷ the run's time: 0 when the consumers served every producer alike. */
        double finishSpread() {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long done : producerDoneNanos) {
                min = Math.min(min, done);
                max = Math.max(max, done);
            }
            return nanos == 0 ? 0 : (double) (max - min) / nanos;
        }
    }

    /** The tuples of each producer. Pure functions; called on producer threads. */
    interface Generator {
        long key(int producer, long index);

        long payload(int producer, long index);
    }

    /** One consumer's use of its tuples, called on that consumer's thread only. */
    interface Sink {
        void accept(long key, long payload);
    }

    /** The consumer of {@code key} among {@code consumers} (a multiplicative hash, so keys 0, 1, 2... spread). */
    static int consumerOf(long key, int consumers) {
        long mixed = key * 0x9E3779B97F4A7C15L;
        return (int) ((mixed >>> 33) % consumers);
    }
}
